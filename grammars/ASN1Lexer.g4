// ASN.1 (ITU-T X.680-X.683, and the X.208 forms still found in real specifications): the lexer.
//
// The lexical items of X.680 clause 12.  Every reserved word of X.680 is a token of its own;
// X.208's ANY, DEFINED and MACRO too.  Identifiers are split by the case of their first
// letter (typereference / identifier), which is all the lexical information ASN.1 gives.
// A catch-all OTHER token keeps the lexer total: a stray character becomes a syntax error
// in the parser, where it is reported with its position, instead of a lexer failure.
//
// "[[" and "]]" are NOT tokens: the parser reads two brackets, so that nested optional
// groups of a WITH SYNTAX clause ("[COUNTS [MIN &minCount]]") lex the same way.
lexer grammar ASN1Lexer;

// ---- comments and white space (X.680 12.6) ----
BLOCK_COMMENT : '/*' (BLOCK_COMMENT | .)*? '*/' -> skip ;
// "--" ends at the next "--" or at the end of the line.
LINE_COMMENT  : '--' (~[\-\r\n] | '-' ~[\-\r\n])* ('--' | '-')? -> skip ;
// A comment opened by three or more hyphens ends at the next three or more (or the end of
// the line): not X.680, but what asn1c accepts and some specifications rely on.
LONG_COMMENT  : '---' '-'* (~[\-\r\n] | '-' ~[\-\r\n] | '--' ~[\-\r\n])* '-'* -> skip ;
WS            : [ \t\r\n\f\u000B\u00A0]+ -> skip ;

// ---- reserved words (X.680 12.38, X.681, X.682, X.683) ----
ABSENT            : 'ABSENT' ;
ABSTRACT_SYNTAX   : 'ABSTRACT-SYNTAX' ;
ALL               : 'ALL' ;
APPLICATION       : 'APPLICATION' ;
AUTOMATIC         : 'AUTOMATIC' ;
BEGIN             : 'BEGIN' ;
BIT               : 'BIT' ;
BMPString         : 'BMPString' ;
BOOLEAN           : 'BOOLEAN' ;
BY                : 'BY' ;
CHARACTER         : 'CHARACTER' ;
CHOICE            : 'CHOICE' ;
CLASS             : 'CLASS' ;
COMPONENT         : 'COMPONENT' ;
COMPONENTS        : 'COMPONENTS' ;
CONSTRAINED       : 'CONSTRAINED' ;
CONTAINING        : 'CONTAINING' ;
DATE              : 'DATE' ;
DATE_TIME         : 'DATE-TIME' ;
DEFAULT           : 'DEFAULT' ;
DEFINITIONS       : 'DEFINITIONS' ;
DURATION          : 'DURATION' ;
EMBEDDED          : 'EMBEDDED' ;
ENCODED           : 'ENCODED' ;
ENCODING_CONTROL  : 'ENCODING-CONTROL' ;
END               : 'END' ;
ENUMERATED        : 'ENUMERATED' ;
EXCEPT            : 'EXCEPT' ;
EXPLICIT          : 'EXPLICIT' ;
EXPORTS           : 'EXPORTS' ;
EXTENSIBILITY     : 'EXTENSIBILITY' ;
EXTERNAL          : 'EXTERNAL' ;
FALSE             : 'FALSE' ;
FROM              : 'FROM' ;
GeneralizedTime   : 'GeneralizedTime' ;
GeneralString     : 'GeneralString' ;
GraphicString     : 'GraphicString' ;
IA5String         : 'IA5String' ;
IDENTIFIER        : 'IDENTIFIER' ;
IMPLICIT          : 'IMPLICIT' ;
IMPLIED           : 'IMPLIED' ;
IMPORTS           : 'IMPORTS' ;
INCLUDES          : 'INCLUDES' ;
INSTANCE          : 'INSTANCE' ;
INSTRUCTIONS      : 'INSTRUCTIONS' ;
INTEGER           : 'INTEGER' ;
INTERSECTION      : 'INTERSECTION' ;
ISO646String      : 'ISO646String' ;
MAX               : 'MAX' ;
MIN               : 'MIN' ;
MINUS_INFINITY    : 'MINUS-INFINITY' ;
NOT_A_NUMBER      : 'NOT-A-NUMBER' ;
NULL              : 'NULL' ;
NumericString     : 'NumericString' ;
OBJECT            : 'OBJECT' ;
ObjectDescriptor  : 'ObjectDescriptor' ;
OCTET             : 'OCTET' ;
OF                : 'OF' ;
OID_IRI           : 'OID-IRI' ;
OPTIONAL          : 'OPTIONAL' ;
PATTERN           : 'PATTERN' ;
PDV               : 'PDV' ;
PLUS_INFINITY     : 'PLUS-INFINITY' ;
PRESENT           : 'PRESENT' ;
PrintableString   : 'PrintableString' ;
PRIVATE           : 'PRIVATE' ;
REAL              : 'REAL' ;
RELATIVE_OID      : 'RELATIVE-OID' ;
RELATIVE_OID_IRI  : 'RELATIVE-OID-IRI' ;
SEQUENCE          : 'SEQUENCE' ;
SET               : 'SET' ;
SETTINGS          : 'SETTINGS' ;
SIZE              : 'SIZE' ;
STRING            : 'STRING' ;
SYNTAX            : 'SYNTAX' ;
T61String         : 'T61String' ;
TAGS              : 'TAGS' ;
TeletexString     : 'TeletexString' ;
TIME              : 'TIME' ;
TIME_OF_DAY       : 'TIME-OF-DAY' ;
TRUE              : 'TRUE' ;
TYPE_IDENTIFIER   : 'TYPE-IDENTIFIER' ;
UNION             : 'UNION' ;
UNIQUE            : 'UNIQUE' ;
UNIVERSAL         : 'UNIVERSAL' ;
UniversalString   : 'UniversalString' ;
UTCTime           : 'UTCTime' ;
UTF8String        : 'UTF8String' ;
VideotexString    : 'VideotexString' ;
VisibleString     : 'VisibleString' ;
WITH              : 'WITH' ;
// X.208 (1988) forms
ANY               : 'ANY' ;
DEFINED           : 'DEFINED' ;
MACRO             : 'MACRO' ;

// ---- punctuation (X.680 12.19-12.37) ----
ASSIGN    : '::=' ;
ELLIPSIS  : '...' ;
RANGE     : '..' ;
DOT       : '.' ;
LBRACE    : '{' ;
RBRACE    : '}' ;
LPAREN    : '(' ;
RPAREN    : ')' ;
LBRACKET  : '[' ;
RBRACKET  : ']' ;
COMMA     : ',' ;
SEMI      : ';' ;
COLON     : ':' ;
LESS      : '<' ;
GREATER   : '>' ;
PIPE      : '|' ;
CARET     : '^' ;
EXCLAM    : '!' ;
AT        : '@' ;
MINUS     : '-' ;

// ---- literals (X.680 12.8-12.14) ----
REALNUMBER : DIGITS '.' DIGITS EXPONENT? | DIGITS EXPONENT ;
NUMBER     : DIGITS ;
BSTRING    : '\'' [01 \t\r\n]* '\'B' ;
HSTRING    : '\'' [0-9A-Fa-f \t\r\n]* '\'H' ;
CSTRING    : '"' (~'"' | '""')* '"' ;

// ---- names (X.680 12.2-12.5, X.681 7.1-7.5) ----
TYPE_FIELD_REF  : '&' [A-Z] NAME_TAIL ;     // &Type, &ValueSet, &ObjectSet
VALUE_FIELD_REF : '&' [a-z] NAME_TAIL ;     // &value, &object
UREF            : [A-Z] NAME_TAIL ;         // typereference, modulereference, objectclassreference
LREF            : [a-z] NAME_TAIL ;         // identifier, valuereference, objectreference

OTHER : . ;

fragment DIGITS    : [0-9]+ ;
fragment EXPONENT  : [eE] [+\-]? DIGITS ;
// Hyphens only between letters or digits, never two in a row (that starts a comment).
fragment NAME_TAIL : ([a-zA-Z0-9] | '-' [a-zA-Z0-9])* ;
