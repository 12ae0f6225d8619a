/* asn1h_time.c: UTCTime and GeneralizedTime, read as X.680 allows and written as DER wants.
 *
 * X.680 (46, 47) allows minutes and seconds to be left out (GeneralizedTime), a fraction
 * with "." or ",", a zone "Z", an offset "+hhmm", or none at all (a local time).  DER
 * (X.690 11.7, 11.8) keeps one form: seconds present, "Z", a fraction after "." without
 * trailing zeros, midnight as 000000 of the next day.  The encoder brings the other forms
 * to it; a local time has none, since its offset is not known.
 */
#include "asn1h_ber.h"

typedef struct parsed_time {
    int year, month, day, hour, minute, second;
    const uint8_t *fraction;            /* digits after the point, NULL when none */
    size_t fraction_len;
    int zone;                           /* 0: local time, 1: "Z", 2: an offset */
    int offset_minutes;                 /* east of UTC, for zone 2 */
} parsed_time;

static int two_digits(const uint8_t *p, int *value)
{
    if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9')
        return 0;
    *value = (p[0] - '0') * 10 + (p[1] - '0');
    return 1;
}

/* Two digits already checked to be digits. */
static int value2(const uint8_t *p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

static int days_in_month(int year, int month)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

/* Reads a time; 0 when the octets are not one (out-of-range fields included).  Cold:
 * times in DER form, the usual ones, are checked by asn1h_is_der_time alone. */
ASN1H_COLD static int parse_time(const uint8_t *p, const uint8_t *end, unsigned universal,
                                 parsed_time *t)
{
    int century = 0;
    memset(t, 0, sizeof *t);
    t->second = -1;
    if (universal == 24) {                      /* YYYY */
        if (end - p < 10 || !two_digits(p, &century) || !two_digits(p + 2, &t->year))
            return 0;
        t->year += century * 100;
        p += 4;
    } else {                                    /* YY: years 1950 to 2049 (RFC 5280) */
        if (end - p < 10 || !two_digits(p, &t->year))
            return 0;
        t->year += t->year < 50 ? 2000 : 1900;
        p += 2;
    }
    if (!two_digits(p, &t->month) || !two_digits(p + 2, &t->day) || !two_digits(p + 4, &t->hour))
        return 0;
    p += 6;
    if (end - p >= 2 && two_digits(p, &t->minute)) {
        p += 2;
        if (end - p >= 2 && two_digits(p, &t->second))
            p += 2;
    } else if (universal == 23) {
        return 0;                               /* UTCTime always has minutes */
    } else {
        t->minute = -1;
    }
    if (p < end && (*p == '.' || *p == ',') && universal == 24) {
        t->fraction = ++p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        t->fraction_len = (size_t)(p - t->fraction);
        if (!t->fraction_len)
            return 0;
    }
    if (p < end && *p == 'Z') {
        t->zone = 1;
        p++;
    } else if (p < end && (*p == '+' || *p == '-')) {
        int hours, minutes = 0, sign = *p == '-' ? -1 : 1;
        if (end - p < 3 || !two_digits(p + 1, &hours))
            return 0;
        p += 3;
        if (end - p >= 2 && two_digits(p, &minutes))
            p += 2;
        else if (universal == 23)
            return 0;                           /* UTCTime offsets are hhmm */
        if (hours > 23 || minutes > 59)
            return 0;
        t->zone = 2;
        t->offset_minutes = sign * (hours * 60 + minutes);
    } else if (universal == 23) {
        return 0;                               /* UTCTime is never a local time */
    }
    return p == end && t->month >= 1 && t->month <= 12 && t->day >= 1
           && t->day <= days_in_month(t->year, t->month) && t->hour <= 24
           && t->minute <= 59 && t->second <= 60
           && (t->hour < 24 || (t->minute <= 0 && t->second <= 0 && !t->fraction));
}

int asn1h_is_time(const uint8_t *p, const uint8_t *end, unsigned universal)
{
    parsed_time t;
    return asn1h_is_der_time(p, end, universal) || parse_time(p, end, universal, &t);
}

int asn1h_is_der_time(const uint8_t *p, const uint8_t *end, unsigned universal)
{
    size_t len = (size_t)(end - p), digits = universal == 23 ? 12 : 14, i;
    int year, month, day, hour, minute, second;
    if (len < digits + 1 || end[-1] != 'Z')
        return 0;
    for (i = 0; i < digits; i++)
        if ((unsigned)(p[i] - '0') > 9)
            return 0;
    if (len > digits + 1) {                     /* a fraction: ".", digits, not ending in 0 */
        if (universal == 23 || p[digits] != '.' || len < digits + 3 || end[-2] == '0')
            return 0;
        for (i = digits + 1; i + 1 < len; i++)
            if ((unsigned)(p[i] - '0') > 9)
                return 0;
    }
    if (universal == 24) {
        year = value2(p) * 100 + value2(p + 2);
        p += 2;
    } else {
        year = value2(p);
        year += year < 50 ? 2000 : 1900;
    }
    month = value2(p + 2);
    day = value2(p + 4);
    hour = value2(p + 6);
    minute = value2(p + 8);
    second = value2(p + 10);
    return month >= 1 && month <= 12 && day >= 1 && day <= days_in_month(year, month)
           && hour <= 23 && minute <= 59 && second <= 60;
}

/* Moves the time by `minutes` (either sign), carrying into hours, days, months, years. */
ASN1H_COLD static void shift(parsed_time *t, int minutes)
{
    int total = t->hour * 60 + t->minute + minutes;
    int days = total >= 0 ? total / 1440 : -((-total + 1439) / 1440);
    total -= days * 1440;
    t->hour = total / 60;
    t->minute = total % 60;
    for (; days > 0; days--)
        if (++t->day > days_in_month(t->year, t->month)) {
            t->day = 1;
            if (++t->month > 12) {
                t->month = 1;
                t->year++;
            }
        }
    for (; days < 0; days++)
        if (--t->day < 1) {
            if (--t->month < 1) {
                t->month = 12;
                t->year--;
            }
            t->day = days_in_month(t->year, t->month);
        }
}

static uint8_t *put_two(uint8_t *out, int value)
{
    *out++ = (uint8_t)('0' + value / 10);
    *out++ = (uint8_t)('0' + value % 10);
    return out;
}

/* The DER form of the time in [p, end) into out (ASN1H_TIME_MAX octets); its length, or
 * 0 when it has none (a local time, a fraction of an hour or a minute, too long). */
ASN1H_COLD size_t asn1h_der_time(const uint8_t *p, const uint8_t *end, unsigned universal,
                                 uint8_t out[ASN1H_TIME_MAX])
{
    parsed_time t;
    uint8_t *o = out;
    size_t digits;
    if (!parse_time(p, end, universal, &t) || t.zone == 0)
        return 0;
    if (t.fraction && (t.minute < 0 || t.second < 0))
        return 0;
    if (t.minute < 0)
        t.minute = 0;
    if (t.second < 0)
        t.second = 0;
    if (t.zone == 2)
        shift(&t, -t.offset_minutes);
    if (t.hour == 24) {                         /* midnight: 000000 of the next day */
        t.hour = 0;
        shift(&t, 24 * 60);
    }
    if (universal == 24) {
        if (t.year < 0 || t.year > 9999)
            return 0;
        o = put_two(o, t.year / 100);
        o = put_two(o, t.year % 100);
    } else {
        if (t.year < 1950 || t.year > 2049)
            return 0;
        o = put_two(o, t.year % 100);
    }
    o = put_two(o, t.month);
    o = put_two(o, t.day);
    o = put_two(o, t.hour);
    o = put_two(o, t.minute);
    o = put_two(o, t.second);
    for (digits = t.fraction_len; digits && t.fraction[digits - 1] == '0'; digits--) {}
    if (digits) {
        if (digits > ASN1H_TIME_MAX - 17)
            return 0;
        *o++ = '.';
        memcpy(o, t.fraction, digits);
        o += digits;
    }
    *o++ = 'Z';
    return (size_t)(o - out);
}

uint8_t *asn1h_put_time(asn1h_enc *e, uint8_t *p, const asn1h_bytes *v, unsigned universal)
{
    uint8_t der[ASN1H_TIME_MAX];
    size_t len;
    if (asn1h_is_der_time(v->buf, v->buf + v->len, universal))
        return asn1h_put_raw(e, p, v->buf, v->len);
    if (!(len = asn1h_der_time(v->buf, v->buf + v->len, universal, der)))
        return asn1h_enc_fail(e, ASN1H_ERR_NO_DER);
    return asn1h_put_raw(e, p, der, len);
}

uint8_t *asn1h_put_der_time(asn1h_enc *e, uint8_t *p, const asn1h_bytes *v,
                            unsigned universal)
{
    if (!asn1h_is_der_time(v->buf, v->buf + v->len, universal))
        return asn1h_enc_fail(e, ASN1H_ERR_NO_DER);
    return asn1h_put_raw(e, p, v->buf, v->len);
}

/* UTCTime, GeneralizedTime: a time of X.680, and in its DER form when strict. */
const uint8_t *asn1h_dec_time(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                              const uint8_t *end, unsigned form, asn1h_bytes *v)
{
    const uint8_t *q = asn1h_dec_bytes(d, p, end, form, v);
    int strict = (d->flags & ASN1H_DER) != 0;
    if (q && !(strict ? asn1h_is_der_time : asn1h_is_time)(v->buf, v->buf + v->len, t->aux))
        return asn1h_fail(d, strict ? ASN1H_ERR_NOT_DER : ASN1H_ERR_VALUE, p);
    return q;
}

const uint8_t *asn1h_dec_der_time(asn1h_dec *d, const asn1h_type *t, const uint8_t *p,
                                  const uint8_t *end, unsigned form, asn1h_bytes *v)
{
    const uint8_t *q = asn1h_dec_bytes(d, p, end, form, v);
    if (q && !asn1h_is_der_time(v->buf, v->buf + v->len, t->aux))
        return asn1h_fail(d, ASN1H_ERR_NOT_DER, p);
    return q;
}
