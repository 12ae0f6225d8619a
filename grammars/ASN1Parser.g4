// ASN.1 (ITU-T X.680-X.683, plus the X.208 forms of 1988-era specifications): the parser.
//
// ASN.1 cannot be parsed by syntax alone: whether "Foo" names a type, a value set, a class
// or an object set, and what "{ a b }" means (a SEQUENCE value, an OBJECT IDENTIFIER, an
// object in the defined syntax of its class, ...), depends on declarations that may come
// later or live in another module.  This grammar therefore parses every notation whose
// structure is fixed by syntax alone (modules, types, constraints, classes) exactly, and
// leaves the rest to semantic analysis in a neutral form:
//
//   * references keep their case-based shape only (typeReference / valueReference);
//   * a braced value ("block") is kept as its token sequence, to be read once the
//     governing type or class is known (docs/frontend.md, "Deferred notation");
//   * value and object assignments, value set and object set assignments, and type and
//     class assignments share one rule each: what they define is decided by what their
//     governor (or right-hand side) resolves to.
//
// Rules are named after the productions of X.680 where they correspond one to one.
parser grammar ASN1Parser;

options { tokenVocab = ASN1Lexer; }

// ===================================================================== modules (X.680 13)

moduleDefinitions
    : moduleDefinition* EOF
    ;

moduleDefinition
    : UREF definitiveIdentification?
      DEFINITIONS encodingReferenceDefault? tagDefault? extensionDefault?
      ASSIGN BEGIN moduleBody encodingControlSection* END
    ;

definitiveIdentification
    : block CSTRING?
    ;

encodingReferenceDefault
    : UREF INSTRUCTIONS
    ;

tagDefault
    : (EXPLICIT | IMPLICIT | AUTOMATIC) TAGS
    ;

extensionDefault
    : EXTENSIBILITY IMPLIED
    ;

moduleBody
    : exports? imports? assignment*
    ;

exports
    : EXPORTS (ALL | symbolList)? SEMI
    ;

imports
    : IMPORTS symbolsFromModule* SEMI
    ;

symbolsFromModule
    : symbolList FROM globalModuleReference
    ;

globalModuleReference
    : UREF assignedIdentifier?
    ;

// A defined value here is the 1994 ambiguity of X.680 13.11: it belongs to this module
// reference only when it is not followed by "," or FROM; adaptive prediction decides.
assignedIdentifier
    : block
    | valueReference
    ;

symbolList
    : symbol (COMMA symbol)*
    ;

// Old modules import (and define) the character string types added to ASN.1 in 1994.
symbol
    : (referenceName | simpleBuiltinType) (LBRACE RBRACE)?
    ;

referenceName
    : UREF | LREF | TYPE_IDENTIFIER | ABSTRACT_SYNTAX
    ;

encodingControlSection
    : ENCODING_CONTROL UREF (~(END | ENCODING_CONTROL))*
    ;

// ================================================================= assignments (X.680 16)

assignment
    // Type or information object class assignment (X.680 16.1, X.681 9.1).
    : typeAssignmentName parameterList? ASSIGN (objectClassDefn | asnType)      # typeOrClassAssignment
    // Value set type or object set assignment (X.680 16.6, X.681 12.1).
    | UREF parameterList? asnType ASSIGN LBRACE elementSetSpecs? RBRACE        # setAssignment
    // Value or object assignment (X.680 16.2, X.681 11.1).
    | LREF parameterList? asnType ASSIGN asnValue                               # valueAssignment
    // The same with an upper-case name (a defect: analysis reports it, lenient mode takes
    // it); a set assignment wins wherever the braces also read as a set.
    | UREF asnType ASSIGN asnValue                                              # upperValueAssignment
    // X.208 macro definition: kept by name, its body skipped.
    | UREF MACRO ASSIGN BEGIN (~END)* END                                      # macroDefinition
    // X.208 macro instance ("sysDescr OBJECT-TYPE SYNTAX ... ::= { system 1 }").
    | LREF UREF macroNotation ASSIGN asnValue                                  # macroValueAssignment
    ;

typeAssignmentName
    : UREF | TYPE_IDENTIFIER | ABSTRACT_SYNTAX | simpleBuiltinType
    ;

// The macro's own notation: anything up to "::=", but not starting like a type would.
macroNotation
    : ~(ASSIGN | LBRACE | DOT | LPAREN) (~ASSIGN)*
    ;

// ======================================================== parameterization (X.683 8, 9)

parameterList
    : LBRACE parameter (COMMA parameter)* RBRACE
    ;

parameter
    : (asnType COLON)? (UREF | LREF)
    ;

// X.683 9.5 wants at least one; an empty list (a bound commented out) is read so that
// analysis can point at it (lenient mode accepts it).
actualParameterList
    : LBRACE (actualParameter (COMMA actualParameter)*)? RBRACE
    ;

actualParameter
    : asnType
    | asnValue
    ;

// ================================================================== types (X.680 17-38)

asnType
    : tag (IMPLICIT | EXPLICIT)? asnType                                   # taggedType
    | (SEQUENCE | SET) (constraint | sizeConstraint)? OF LREF? asnType      # collectionType
    // "BIT STRING SIZE (...)" without parentheses is X.208 usage that asn1c accepts.
    | builtinOrReferencedType (constraint | sizeConstraint)*               # plainType
    ;

builtinOrReferencedType
    : BOOLEAN                                                   # booleanType
    | NULL                                                      # nullType
    | REAL                                                      # realType
    | INTEGER namedNumberList?                                  # integerType
    | ENUMERATED enumerations                                   # enumeratedType
    | BIT STRING namedNumberList?                               # bitStringType
    | OCTET STRING                                              # octetStringType
    | OBJECT IDENTIFIER                                         # objectIdentifierType
    | EMBEDDED PDV                                              # embeddedPdvType
    | CHARACTER STRING                                          # characterStringType
    | simpleBuiltinType                                         # simpleType
    | ANY (DEFINED BY LREF)?                                    # anyType
    | SEQUENCE LBRACE componentList? RBRACE                     # sequenceType
    | SET LBRACE componentList? RBRACE                          # setType
    | CHOICE LBRACE componentList RBRACE                        # choiceType
    | INSTANCE OF typeReference                                 # instanceOfType
    | LREF LESS asnType                                         # selectionType
    | typeReference                                             # referencedType
    ;

// Built-in types written as a single reserved word.
simpleBuiltinType
    : RELATIVE_OID | OID_IRI | RELATIVE_OID_IRI | EXTERNAL
    | BMPString | GeneralString | GraphicString | IA5String | ISO646String | NumericString
    | PrintableString | TeletexString | T61String | UniversalString | UTF8String
    | VideotexString | VisibleString
    | UTCTime | GeneralizedTime | ObjectDescriptor
    | DATE | DATE_TIME | DURATION | TIME | TIME_OF_DAY
    ;

tag
    : LBRACKET (UREF COLON)? tagClass? tagNumber RBRACKET
    ;

tagClass
    : UNIVERSAL | APPLICATION | PRIVATE
    ;

tagNumber
    : NUMBER
    | valueReference
    ;

// INTEGER and BIT STRING named numbers; "..." is accepted here so that analysis can say
// why it is wrong.
namedNumberList
    : LBRACE namedNumber (COMMA namedNumber)* RBRACE
    ;

namedNumber
    : LREF LPAREN (signedNumber | valueReference) RPAREN
    | ELLIPSIS
    ;

signedNumber
    : MINUS? NUMBER
    ;

enumerations
    : LBRACE enumerationItem (COMMA enumerationItem)* RBRACE
    ;

enumerationItem
    : LREF (LPAREN (signedNumber | valueReference) RPAREN)?
    | ELLIPSIS exceptionSpec?
    ;

// SEQUENCE, SET and CHOICE bodies (X.680 25, 27, 29) share one list; analysis rejects what
// a CHOICE may not have (COMPONENTS OF, OPTIONAL, DEFAULT).
componentList
    : componentItem (COMMA componentItem)*
    ;

componentItem
    : ELLIPSIS exceptionSpec?                                                   # extensionMarker
    | LBRACKET LBRACKET (NUMBER COLON)? componentList RBRACKET RBRACKET        # extensionGroup
    | COMPONENTS OF asnType                                                     # componentsOf
    // The identifier is optional only in X.208 syntax.
    | LREF? asnType (OPTIONAL | DEFAULT asnValue)?                              # namedComponent
    ;

exceptionSpec
    : EXCLAM (signedNumber | valueReference | asnType COLON asnValue)
    ;

// =========================================== references (X.680 14, X.681 14-15, X.683 9)

// Where a type is expected: a type reference (external, parameterized), a class field
// type ("CLASS.&field"), a type taken from an object ("obj.&Type"), or, inside a class
// definition, a field of the class itself ("&Type").
typeReference
    : (UREF DOT)? (UREF | TYPE_IDENTIFIER | ABSTRACT_SYNTAX) actualParameterList? (DOT fieldName)*
    | (UREF DOT)? LREF actualParameterList? (DOT fieldName)+
    | fieldName (DOT fieldName)*
    ;

// Where a value is expected: a value or object reference, possibly external, parameterized,
// or followed by field names ("obj.&id").
valueReference
    : (UREF DOT)? LREF actualParameterList? (DOT fieldName)*
    ;

fieldName
    : TYPE_FIELD_REF
    | VALUE_FIELD_REF
    ;

// ======================================================================= values (X.680)

asnValue
    : block                                                                # blockValue
    | (TRUE | FALSE | NULL | PLUS_INFINITY | MINUS_INFINITY | NOT_A_NUMBER) # keywordValue
    | MINUS? (NUMBER | REALNUMBER)                                         # numberValue
    | CSTRING                                                              # cstringValue
    | BSTRING                                                              # bstringValue
    | HSTRING                                                              # hstringValue
    | LREF COLON asnValue                                                  # choiceValue
    | asnType COLON asnValue                                               # openTypeValue
    | valueReference                                                       # referencedValue
    | CONTAINING asnValue                                                  # containingValue
    ;

// A braced notation kept as tokens: a SEQUENCE, SET OF or OBJECT IDENTIFIER value, an
// object in the defined syntax of its class, an object set given as a parameter, ...
block
    : LBRACE (block | ~(LBRACE | RBRACE))* RBRACE
    ;

// ================================================================ constraints (X.680 49-51)

constraint
    : LPAREN constraintSpec exceptionSpec? RPAREN
    ;

sizeConstraint
    : SIZE constraint
    ;

constraintSpec
    : generalConstraint
    | elementSetSpecs
    ;

generalConstraint
    : CONSTRAINED BY block                                                # userDefinedConstraint
    | block LBRACE atNotation (COMMA atNotation)* RBRACE                  # componentRelationConstraint
    | CONTAINING asnType (ENCODED BY asnValue)?                           # contentsConstraint
    | ENCODED BY asnValue                                                 # encodedByConstraint
    ;

atNotation
    : AT (DOT | RANGE | ELLIPSIS)* LREF (DOT LREF)*
    ;

elementSetSpecs
    : elementSetSpec (COMMA ELLIPSIS exceptionSpec? (COMMA elementSetSpec)? extraMarker*)?
    | ELLIPSIS exceptionSpec? (COMMA elementSetSpec)? extraMarker*
    ;

// A second extension marker, and more additions: not X.680 16.1 / X.681 12.3, but found in
// real object sets; analysis points at it (lenient mode reads the rest as additions).
extraMarker
    : COMMA ELLIPSIS (COMMA elementSetSpec)?
    ;

elementSetSpec
    : ALL EXCEPT elements
    | unions
    ;

unions
    : intersections ((PIPE | UNION) intersections)*
    ;

intersections
    : intersectionElements ((CARET | INTERSECTION) intersectionElements)*
    ;

intersectionElements
    : elements (EXCEPT elements)?
    ;

elements
    // X.680 allows no extension marker here; G.4.3.4 shows one, and asn1c accepts it.
    : LPAREN elementSetSpecs RPAREN                                       # nestedElements
    | SIZE constraint                                                     # sizeElement
    | FROM constraint                                                     # permittedAlphabetElement
    | WITH COMPONENT constraint                                           # innerTypeElement
    | WITH COMPONENTS LBRACE
          (ELLIPSIS (COMMA namedConstraint)* | namedConstraint (COMMA namedConstraint)*)
      RBRACE                                                              # innerTypesElement
    | PATTERN asnValue                                                    # patternElement
    | SETTINGS CSTRING                                                    # settingsElement
    | INCLUDES asnType                                                    # includesElement
    | rangeEndpoint LESS? RANGE LESS? rangeEndpoint                       # valueRangeElement
    | asnType                                                             # typeElement
    | asnValue                                                            # valueElement
    ;

rangeEndpoint
    : MIN
    | MAX
    | asnValue
    ;

namedConstraint
    : LREF constraint? (PRESENT | ABSENT | OPTIONAL)?
    ;

// ========================================= information object classes (X.681 9, 10)

objectClassDefn
    : CLASS LBRACE fieldSpec (COMMA fieldSpec)* RBRACE withSyntaxSpec?
    ;

fieldSpec
    // &Type [OPTIONAL | DEFAULT Type]
    : TYPE_FIELD_REF (OPTIONAL | DEFAULT asnType)?                         # typeFieldSpec
    // &value Type|&Field [UNIQUE] [OPTIONAL | DEFAULT Value]; also &object CLASS ...
    | VALUE_FIELD_REF asnType UNIQUE? (OPTIONAL | DEFAULT asnValue)?      # valueFieldSpec
    // &ValueSet Type|&Field [OPTIONAL | DEFAULT {...}]; also &ObjectSet CLASS ...
    | TYPE_FIELD_REF asnType (OPTIONAL | DEFAULT asnValue)?               # valueSetFieldSpec
    ;

withSyntaxSpec
    : WITH SYNTAX syntaxList
    ;

syntaxList
    : LBRACE tokenOrGroupSpec* RBRACE
    ;

tokenOrGroupSpec
    : LBRACKET tokenOrGroupSpec+ RBRACKET
    | ~(LBRACKET | RBRACKET | LBRACE | RBRACE)
    ;

// ======================================== entry points for deferred notation (blocks)

typeOnly : asnType EOF ;
valueOnly : asnValue EOF ;
elementSetSpecsOnly : elementSetSpecs? EOF ;
