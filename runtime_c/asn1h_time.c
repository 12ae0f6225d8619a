/* asn1h_time.c: UTCTime and GeneralizedTime, read as X.680 allows and written as DER wants.
 *
 * X.680 (46, 47) allows minutes and seconds to be left out (GeneralizedTime), a fraction
 * with "." or ",", a zone "Z", an offset "+hhmm", or none at all (a local time).  DER
 * (X.690 11.7, 11.8) keeps one form: seconds present, "Z", a fraction after "." without
 * trailing zeros, midnight as 000000 of the next day.  The encoder brings the other forms
 * to it; a local time has none, since its offset is not known.
 */
#include "asn1h_ber.h"

/* A time's fields, in the order DER writes them; -1 for a minute or second left out. */
enum { YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, FIELDS };

typedef struct parsed_time {
    int f[FIELDS];
    const uint8_t *fraction;            /* digits after the point, NULL when none */
    size_t fraction_len;
    int zone;                           /* 0: local time, 1: "Z", 2: an offset */
    int offset_minutes;                 /* east of UTC, for zone 2 */
} parsed_time;

/* Reads up to `max` numbers of two digits from *p on into out; how many it read. */
ASN1H_COLD static int read_pairs(const uint8_t **p, const uint8_t *end, int *out, int max)
{
    const uint8_t *q = *p;
    int n = 0;
    for (; n < max && end - q >= 2 && (unsigned)(q[0] - '0') <= 9 && (unsigned)(q[1] - '0') <= 9;
         q += 2)
        out[n++] = (q[0] - '0') * 10 + (q[1] - '0');
    *p = q;
    return n;
}

/* Two digits already checked to be digits. */
static int value2(const uint8_t *p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

static int days_in_month(int year, int month)
{
    static const uint8_t days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

/* Reads a time; 0 when the octets are not one (out-of-range fields included).  Cold:
 * times in DER form, the usual ones, are checked by asn1h_is_der_time alone. */
ASN1H_COLD static int parse_time(const uint8_t *p, const uint8_t *end, unsigned universal,
                                 parsed_time *t)
{
    /* the digits two by two: a GeneralizedTime's year takes two pairs, a UTCTime's one,
     * then month, day, hour, and minute and second when present.  Five pairs at least:
     * UTCTime always has minutes. */
    int pairs[FIELDS + 1], year_pairs = universal == 24 ? 2 : 1, i;
    int n = read_pairs(&p, end, pairs, FIELDS - 1 + year_pairs);
    memset(t, 0, sizeof *t);
    if (n < 5)
        return 0;
    /* a UTCTime's YY: years 1950 to 2049 (RFC 5280) */
    t->f[YEAR] = year_pairs == 2 ? pairs[0] * 100 + pairs[1]
                                 : pairs[0] + (pairs[0] < 50 ? 2000 : 1900);
    for (i = MONTH; i < FIELDS; i++)
        t->f[i] = i + year_pairs - 1 < n ? pairs[i + year_pairs - 1] : -1;
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
        int sign = *p++ == '-' ? -1 : 1, hhmm[2] = {0, 0};
        int k = read_pairs(&p, end, hhmm, 2);
        /* hh, then mm: optional but in a UTCTime */
        if (k < (universal == 23 ? 2 : 1) || hhmm[0] > 23 || hhmm[1] > 59)
            return 0;
        t->zone = 2;
        t->offset_minutes = sign * (hhmm[0] * 60 + hhmm[1]);
    } else if (universal == 23) {
        return 0;                               /* UTCTime is never a local time */
    }
    return p == end && t->f[MONTH] >= 1 && t->f[MONTH] <= 12 && t->f[DAY] >= 1
           && t->f[DAY] <= days_in_month(t->f[YEAR], t->f[MONTH]) && t->f[HOUR] <= 24
           && t->f[MINUTE] <= 59 && t->f[SECOND] <= 60
           && (t->f[HOUR] < 24 || (t->f[MINUTE] <= 0 && t->f[SECOND] <= 0 && !t->fraction));
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

/* Moves the time by `minutes`, carrying into hours, days, months, years.  An offset is
 * less than a day and the hour at most 24 (then 00:00), so the day moves by one at most. */
ASN1H_COLD static void shift(parsed_time *t, int minutes)
{
    int *f = t->f, total = f[HOUR] * 60 + f[MINUTE] + minutes;
    if (total < 0) {
        total += 1440;
        if (--f[DAY] < 1) {
            if (--f[MONTH] < 1) {
                f[MONTH] = 12;
                f[YEAR]--;
            }
            f[DAY] = days_in_month(f[YEAR], f[MONTH]);
        }
    } else if (total >= 1440) {
        total -= 1440;
        if (++f[DAY] > days_in_month(f[YEAR], f[MONTH])) {
            f[DAY] = 1;
            if (++f[MONTH] > 12) {
                f[MONTH] = 1;
                f[YEAR]++;
            }
        }
    }
    f[HOUR] = total / 60;
    f[MINUTE] = total % 60;
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
    int i;
    if (!parse_time(p, end, universal, &t) || t.zone == 0)
        return 0;
    if (t.fraction && (t.f[MINUTE] < 0 || t.f[SECOND] < 0))
        return 0;
    for (i = MINUTE; i < FIELDS; i++)
        if (t.f[i] < 0)
            t.f[i] = 0;
    /* to UTC (offset_minutes is 0 with "Z"); the shift also carries an hour of 24,
     * midnight, into 000000 of the next day */
    shift(&t, -t.offset_minutes);
    if (universal == 24) {
        if (t.f[YEAR] < 0 || t.f[YEAR] > 9999)
            return 0;
        o = put_two(o, t.f[YEAR] / 100);
    } else if (t.f[YEAR] < 1950 || t.f[YEAR] > 2049) {
        return 0;
    }
    t.f[YEAR] %= 100;
    for (i = YEAR; i < FIELDS; i++)
        o = put_two(o, t.f[i]);
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
    const uint8_t *buf = v->buf;
    size_t len = v->len;
    if (!asn1h_is_der_time(buf, buf + len, universal)) {
        if (!(len = asn1h_der_time(buf, buf + len, universal, der)))
            return asn1h_enc_fail(e, ASN1H_ERR_NO_DER);
        buf = der;
    }
    return asn1h_put_raw(e, p, buf, len);
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
