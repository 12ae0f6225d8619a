"""Parse tree -> AST (frontend/ast.py).

One method per grammar rule; each returns the AST of its rule.  Blocks keep the tokens
between their braces (see ast.BlockValue), read from the token list of the parse.
"""
from __future__ import annotations

from typing import Optional, Sequence

from antlr4.tree.Tree import TerminalNode

from . import ast
from .generated.ASN1Lexer import ASN1Lexer as L
from .generated.ASN1Parser import ASN1Parser as P
from .lexical import bstring_bits, cstring_text, hstring_digits


def _pos(ctx) -> ast.Pos:
    token = ctx.start if hasattr(ctx, "start") else ctx.symbol
    return (token.line, token.column + 1)


def _tpos(token) -> ast.Pos:
    return (token.line, token.column + 1)


_SIMPLE_BUILTIN_NAMES = {
    L.RELATIVE_OID: "RELATIVE-OID", L.OID_IRI: "OID-IRI", L.RELATIVE_OID_IRI: "RELATIVE-OID-IRI",
    L.DATE_TIME: "DATE-TIME", L.TIME_OF_DAY: "TIME-OF-DAY",
}



# Built-in types written as their keywords alone: the parse context -> the type's name.
_PLAIN_BUILTINS = {
    P.BooleanTypeContext: "BOOLEAN", P.NullTypeContext: "NULL", P.RealTypeContext: "REAL",
    P.OctetStringTypeContext: "OCTET STRING", P.ObjectIdentifierTypeContext: "OBJECT IDENTIFIER",
    P.EmbeddedPdvTypeContext: "EMBEDDED PDV", P.CharacterStringTypeContext: "CHARACTER STRING",
}

class AstBuilder:
    """Builds the AST of one parse (a file, or a run of kept tokens)."""

    def __init__(self, tokens: Sequence) -> None:
        self.tokens = tokens

    # ------------------------------------------------------------------ modules

    def modules(self, ctx: P.ModuleDefinitionsContext) -> list[ast.Module]:
        return [self.module(m) for m in ctx.moduleDefinition()]

    def module(self, ctx: P.ModuleDefinitionContext) -> ast.Module:
        module = ast.Module(name=ctx.UREF().getText(), pos=_pos(ctx))
        ident = ctx.definitiveIdentification()
        if ident is not None:
            module.oid = self.block(ident.block())
        tag_default = ctx.tagDefault()
        if tag_default is not None:
            module.tag_default = tag_default.getChild(0).getText()
        module.extensibility_implied = ctx.extensionDefault() is not None
        body = ctx.moduleBody()
        exports = body.exports()
        if exports is not None and exports.ALL() is None:
            symbols = exports.symbolList()
            module.exports = self.symbols(symbols) if symbols is not None else []
        imports = body.imports()
        if imports is not None:
            for item in imports.symbolsFromModule():
                ref = item.globalModuleReference()
                assigned = None
                assigned_ctx = ref.assignedIdentifier()
                if assigned_ctx is not None:
                    if assigned_ctx.block() is not None:
                        assigned = self.block(assigned_ctx.block())
                    else:
                        vref = assigned_ctx.valueReference()
                        assigned = ast.ReferencedValue(_pos(vref), self.value_reference(vref))
                module.imports.append(ast.Import(
                    symbols=self.symbols(item.symbolList()), module=ref.UREF().getText(),
                    pos=_tpos(ref.UREF().symbol), assigned=assigned))
        module.assignments = [self.assignment(a) for a in body.assignment()]
        return module

    def symbols(self, ctx: P.SymbolListContext) -> list[ast.ImportedSymbol]:
        return [ast.ImportedSymbol(s.getChild(0).getText(), _pos(s)) for s in ctx.symbol()]

    # -------------------------------------------------------------- assignments

    def assignment(self, ctx) -> ast.Assignment:
        pos = _pos(ctx)
        if isinstance(ctx, P.TypeOrClassAssignmentContext):
            name = ctx.typeAssignmentName().getText()
            params = self.parameters(ctx.parameterList())
            if ctx.objectClassDefn() is not None:
                return ast.TypeAssignment(name, pos, self.class_definition(ctx.objectClassDefn()), params)
            return ast.TypeAssignment(name, pos, self.type(ctx.asnType()), params)
        if isinstance(ctx, P.ValueAssignmentContext):
            return ast.ValueAssignment(ctx.LREF().getText(), pos, self.type(ctx.asnType()),
                                       self.value(ctx.asnValue()),
                                       self.parameters(ctx.parameterList()))
        if isinstance(ctx, P.UpperValueAssignmentContext):
            return ast.ValueAssignment(ctx.UREF().getText(), pos, self.type(ctx.asnType()),
                                       self.value(ctx.asnValue()), None)
        if isinstance(ctx, P.SetAssignmentContext):
            specs = ctx.elementSetSpecs()
            return ast.SetAssignment(ctx.UREF().getText(), pos, self.type(ctx.asnType()),
                                     self.element_set_specs(specs) if specs is not None
                                     else ast.ElementSetSpecs(None, pos=_tpos(ctx.LBRACE().symbol)),
                                     self.parameters(ctx.parameterList()))
        if isinstance(ctx, P.MacroDefinitionContext):
            return ast.MacroDefinition(ctx.UREF().getText(), pos)
        if isinstance(ctx, P.MacroValueAssignmentContext):
            return ast.MacroValueAssignment(ctx.LREF().getText(), pos, ctx.UREF().getText(),
                                            _tpos(ctx.UREF().symbol), self.value(ctx.asnValue()))
        raise AssertionError(f"unknown assignment {type(ctx).__name__}")

    def parameters(self, ctx: Optional[P.ParameterListContext]) -> Optional[list[ast.Parameter]]:
        if ctx is None:
            return None
        result = []
        for p in ctx.parameter():
            name = p.UREF() or p.LREF()
            governor = self.type(p.asnType()) if p.asnType() is not None else None
            result.append(ast.Parameter(name.getText(), _tpos(name.symbol), governor))
        return result

    # -------------------------------------------------------------------- types

    def type(self, ctx) -> ast.Type:
        pos = _pos(ctx)
        if isinstance(ctx, P.PlainTypeContext):
            base = self.builtin_or_referenced(ctx.builtinOrReferencedType())
            constraints = []
            for child in ctx.getChildren():
                if isinstance(child, P.ConstraintContext):
                    constraints.append(self.constraint(child))
                elif isinstance(child, P.SizeConstraintContext):
                    constraints.append(self.size_as_constraint(child))
            if constraints:
                return ast.ConstrainedType(pos, base, constraints)
            return base
        if isinstance(ctx, P.TaggedTypeContext):
            tag = ctx.tag()
            tag_class = tag.tagClass().getText() if tag.tagClass() is not None else "CONTEXT"
            number_ctx = tag.tagNumber()
            if number_ctx.NUMBER() is not None:
                number = int(number_ctx.NUMBER().getText())
            else:
                number = self.value_reference(number_ctx.valueReference())
            mode = None
            if ctx.IMPLICIT() is not None:
                mode = "IMPLICIT"
            elif ctx.EXPLICIT() is not None:
                mode = "EXPLICIT"
            return ast.TaggedType(pos, tag_class, number, mode, self.type(ctx.asnType()))
        if isinstance(ctx, P.CollectionTypeContext):
            kind = "SEQUENCE OF" if ctx.SEQUENCE() is not None else "SET OF"
            constraint = None
            if ctx.constraint() is not None:
                constraint = self.constraint(ctx.constraint())
            elif ctx.sizeConstraint() is not None:
                constraint = self.size_as_constraint(ctx.sizeConstraint())
            name = ctx.LREF().getText() if ctx.LREF() is not None else None
            return ast.CollectionType(pos, kind, self.type(ctx.asnType()), name, constraint)
        raise AssertionError(f"unknown type {type(ctx).__name__}")

    def size_as_constraint(self, ctx: P.SizeConstraintContext) -> ast.Constraint:
        """``SEQUENCE SIZE (...) OF``: the same as ``SEQUENCE (SIZE (...)) OF``."""
        pos = _pos(ctx)
        inner = self.constraint(ctx.constraint())
        element = ast.SizeElement(inner, pos)
        return ast.Constraint(ast.ElementSetSpecs(element, pos=pos), pos, self.text(ctx))

    def builtin_or_referenced(self, ctx) -> ast.Type:
        pos = _pos(ctx)
        if isinstance(ctx, P.ReferencedTypeContext):
            return ast.ReferencedType(pos, self.type_reference(ctx.typeReference()))
        if isinstance(ctx, P.SimpleTypeContext):
            token = ctx.simpleBuiltinType().start
            return ast.BuiltinType(pos, _SIMPLE_BUILTIN_NAMES.get(token.type, token.text))
        if isinstance(ctx, P.IntegerTypeContext):
            return ast.IntegerType(pos, self.named_numbers(ctx.namedNumberList()))
        if isinstance(ctx, P.BitStringTypeContext):
            return ast.BitStringType(pos, self.named_numbers(ctx.namedNumberList()))
        if isinstance(ctx, P.EnumeratedTypeContext):
            return ast.EnumeratedType(pos, [self.enumeration_item(i)
                                            for i in ctx.enumerations().enumerationItem()])
        if isinstance(ctx, (P.SequenceTypeContext, P.SetTypeContext, P.ChoiceTypeContext)):
            kind = ctx.start.text
            items = self.component_list(ctx.componentList()) if ctx.componentList() else []
            return ast.StructuredType(pos, kind, items)
        if type(ctx) in _PLAIN_BUILTINS:
            return ast.BuiltinType(pos, _PLAIN_BUILTINS[type(ctx)])
        if isinstance(ctx, P.AnyTypeContext):
            defined_by = ctx.LREF().getText() if ctx.LREF() is not None else None
            return ast.AnyType(pos, defined_by)
        if isinstance(ctx, P.SelectionTypeContext):
            return ast.SelectionType(pos, ctx.LREF().getText(), self.type(ctx.asnType()))
        if isinstance(ctx, P.InstanceOfTypeContext):
            return ast.InstanceOfType(pos, self.type_reference(ctx.typeReference()))
        raise AssertionError(f"unknown type {type(ctx).__name__}")

    def named_numbers(self, ctx: Optional[P.NamedNumberListContext]) -> list[ast.NamedNumber]:
        if ctx is None:
            return []
        result = []
        for item in ctx.namedNumber():
            if item.ELLIPSIS() is not None:
                result.append(ast.NamedNumber(None, None, _pos(item)))
            else:
                result.append(ast.NamedNumber(item.LREF().getText(), self.number_or_reference(item),
                                              _pos(item)))
        return result

    def enumeration_item(self, ctx: P.EnumerationItemContext) -> ast.NamedNumber:
        if ctx.ELLIPSIS() is not None:
            return ast.NamedNumber(None, None, _pos(ctx))
        value = None
        if ctx.LPAREN() is not None:
            value = self.number_or_reference(ctx)
        return ast.NamedNumber(ctx.LREF().getText(), value, _pos(ctx))

    def number_or_reference(self, ctx):
        if ctx.signedNumber() is not None:
            return self.signed_number(ctx.signedNumber())
        return self.value_reference(ctx.valueReference())

    @staticmethod
    def signed_number(ctx: P.SignedNumberContext) -> int:
        value = int(ctx.NUMBER().getText())
        return -value if ctx.MINUS() is not None else value

    def component_list(self, ctx: P.ComponentListContext) -> list[ast.ComponentItem]:
        return [self.component_item(item) for item in ctx.componentItem()]

    def component_item(self, ctx) -> ast.ComponentItem:
        pos = _pos(ctx)
        if isinstance(ctx, P.NamedComponentContext):
            name = ctx.LREF().getText() if ctx.LREF() is not None else None
            default = self.value(ctx.asnValue()) if ctx.DEFAULT() is not None else None
            return ast.NamedComponent(name, self.type(ctx.asnType()), pos,
                                      optional=ctx.OPTIONAL() is not None, default=default)
        if isinstance(ctx, P.ExtensionMarkerContext):
            return ast.ExtensionMarker(pos)
        if isinstance(ctx, P.ComponentsOfContext):
            return ast.ComponentsOf(self.type(ctx.asnType()), pos)
        if isinstance(ctx, P.ExtensionGroupContext):
            version = int(ctx.NUMBER().getText()) if ctx.NUMBER() is not None else None
            return ast.ExtensionGroup(self.component_list(ctx.componentList()), pos, version)
        raise AssertionError(f"unknown component {type(ctx).__name__}")

    # --------------------------------------------------------------- references

    def type_reference(self, ctx: P.TypeReferenceContext) -> ast.Reference:
        return self._reference(ctx)

    def value_reference(self, ctx: P.ValueReferenceContext) -> ast.Reference:
        return self._reference(ctx)

    def _reference(self, ctx) -> ast.Reference:
        names = []
        args = None
        fields = []
        for child in ctx.getChildren():
            if isinstance(child, TerminalNode):
                if child.symbol.type != L.DOT:
                    names.append(child.getText())
            elif isinstance(child, P.ActualParameterListContext):
                args = [self.actual(a) for a in child.actualParameter()]
            elif isinstance(child, P.FieldNameContext):
                fields.append(child.getText())
        if fields and not names:                       # "&field.&field" inside a class
            return ast.Reference(fields[0], _pos(ctx), None, None, tuple(fields[1:]))
        module = names[0] if len(names) == 2 else None
        return ast.Reference(names[-1], _pos(ctx), module, args, tuple(fields))

    def actual(self, ctx: P.ActualParameterContext) -> ast.Actual:
        if ctx.asnType() is not None:
            return self.type(ctx.asnType())
        return self.value(ctx.asnValue())

    # ------------------------------------------------------------------- values

    def value(self, ctx) -> ast.Value:
        pos = _pos(ctx)
        if isinstance(ctx, P.BlockValueContext):
            return self.block(ctx.block())
        if isinstance(ctx, P.ReferencedValueContext):
            return ast.ReferencedValue(pos, self.value_reference(ctx.valueReference()))
        if isinstance(ctx, P.NumberValueContext):
            if ctx.NUMBER() is not None:
                number = int(ctx.NUMBER().getText())
            else:
                number = float(ctx.REALNUMBER().getText())
            return ast.NumberValue(pos, -number if ctx.MINUS() is not None else number)
        if isinstance(ctx, P.KeywordValueContext):
            return ast.KeywordValue(pos, ctx.start.text)
        if isinstance(ctx, P.CstringValueContext):
            return ast.CStringValue(pos, cstring_text(ctx.CSTRING().getText()))
        if isinstance(ctx, P.BstringValueContext):
            return ast.BStringValue(pos, bstring_bits(ctx.BSTRING().getText()))
        if isinstance(ctx, P.HstringValueContext):
            return ast.HStringValue(pos, hstring_digits(ctx.HSTRING().getText()))
        if isinstance(ctx, P.ChoiceValueContext):
            return ast.ChoiceValue(pos, ctx.LREF().getText(), self.value(ctx.asnValue()))
        if isinstance(ctx, P.OpenTypeValueContext):
            return ast.OpenTypeValue(pos, self.type(ctx.asnType()), self.value(ctx.asnValue()))
        if isinstance(ctx, P.ContainingValueContext):
            return ast.ContainingValue(pos, self.value(ctx.asnValue()))
        raise AssertionError(f"unknown value {type(ctx).__name__}")

    def block(self, ctx: P.BlockContext) -> ast.BlockValue:
        first, last = ctx.start.tokenIndex, ctx.stop.tokenIndex
        kept = tuple((t.type, t.text, t.line, t.column + 1) for t in self.tokens[first + 1:last])
        return ast.BlockValue(_pos(ctx), kept, _tpos(ctx.stop))

    def text(self, ctx) -> str:
        """The source text of a rule, tokens joined by single spaces (for messages)."""
        first, last = ctx.start.tokenIndex, ctx.stop.tokenIndex
        return " ".join(t.text for t in self.tokens[first:last + 1])

    # -------------------------------------------------------------- constraints

    def constraint(self, ctx: P.ConstraintContext) -> ast.Constraint:
        pos = _pos(ctx)
        spec_ctx = ctx.constraintSpec()
        general = spec_ctx.generalConstraint()
        if general is not None:
            spec = self.general_constraint(general)
        else:
            spec = self.element_set_specs(spec_ctx.elementSetSpecs())
        return ast.Constraint(spec, pos, self.text(ctx))

    def general_constraint(self, ctx):
        if isinstance(ctx, P.UserDefinedConstraintContext):
            return ast.UserDefinedConstraint(self.block(ctx.block()))
        if isinstance(ctx, P.ComponentRelationConstraintContext):
            return ast.TableConstraint(self.block(ctx.block()),
                                       [self.at_notation(a) for a in ctx.atNotation()])
        if isinstance(ctx, P.ContentsConstraintContext):
            encoded = self.value(ctx.asnValue()) if ctx.asnValue() is not None else None
            return ast.ContentsConstraint(self.type(ctx.asnType()), encoded)
        if isinstance(ctx, P.EncodedByConstraintContext):
            return ast.ContentsConstraint(None, self.value(ctx.asnValue()))
        raise AssertionError(f"unknown constraint {type(ctx).__name__}")

    @staticmethod
    def at_notation(ctx: P.AtNotationContext) -> ast.AtNotation:
        level = 0
        path = []
        for child in ctx.getChildren():
            token_type = child.symbol.type
            if token_type == L.LREF:
                path.append(child.getText())
            elif not path and token_type in (L.DOT, L.RANGE, L.ELLIPSIS):
                level += {L.DOT: 1, L.RANGE: 2, L.ELLIPSIS: 3}[token_type]
        return ast.AtNotation(level, tuple(path), _pos(ctx))

    def element_set_specs(self, ctx: P.ElementSetSpecsContext) -> ast.ElementSetSpecs:
        sets = [self.element_set(s) for s in ctx.elementSetSpec()]
        extensible = ctx.ELLIPSIS() is not None
        pos = _pos(ctx)
        if not extensible:
            return ast.ElementSetSpecs(sets[0], False, None, pos)
        root = None if ctx.start.type == L.ELLIPSIS else sets.pop(0)
        markers = ctx.extraMarker()
        sets += [self.element_set(m.elementSetSpec()) for m in markers
                 if m.elementSetSpec() is not None]
        additions = None if not sets else sets[0] if len(sets) == 1 \
            else ast.Union_(sets, _pos(ctx.elementSetSpec(len(ctx.elementSetSpec()) - 1)))
        return ast.ElementSetSpecs(root, True, additions, pos,
                                   tuple(_tpos(m.ELLIPSIS().symbol) for m in markers))

    def element_set(self, ctx: P.ElementSetSpecContext) -> ast.ElementSet:
        if ctx.ALL() is not None:
            return ast.Exclusion(None, self.elements(ctx.elements()), _pos(ctx))
        unions = ctx.unions()
        items = [self.intersections(i) for i in unions.intersections()]
        return items[0] if len(items) == 1 else ast.Union_(items, _pos(unions))

    def intersections(self, ctx: P.IntersectionsContext) -> ast.ElementSet:
        items = []
        for element_ctx in ctx.intersectionElements():
            parts = element_ctx.elements()
            element = self.elements(parts[0])
            if len(parts) == 2:
                element = ast.Exclusion(element, self.elements(parts[1]), _pos(element_ctx))
            items.append(element)
        return items[0] if len(items) == 1 else ast.Intersection(items, _pos(ctx))

    def elements(self, ctx) -> ast.ElementSet:
        pos = _pos(ctx)
        if isinstance(ctx, P.ValueElementContext):
            return ast.SingleValue(self.value(ctx.asnValue()), pos)
        if isinstance(ctx, P.TypeElementContext):
            return ast.TypeElement(self.type(ctx.asnType()), pos)
        if isinstance(ctx, P.ValueRangeElementContext):
            lower, upper = ctx.rangeEndpoint()
            lower_open = upper_open = False
            seen_range = False
            for child in ctx.getChildren():
                if isinstance(child, TerminalNode):
                    if child.symbol.type == L.RANGE:
                        seen_range = True
                    elif child.symbol.type == L.LESS:
                        if seen_range:
                            upper_open = True
                        else:
                            lower_open = True
            return ast.ValueRange(self.endpoint(lower), self.endpoint(upper), pos,
                                  lower_open, upper_open)
        if isinstance(ctx, P.SizeElementContext):
            return ast.SizeElement(self.constraint(ctx.constraint()), pos)
        if isinstance(ctx, P.PermittedAlphabetElementContext):
            return ast.AlphabetElement(self.constraint(ctx.constraint()), pos)
        if isinstance(ctx, P.NestedElementsContext):
            specs = self.element_set_specs(ctx.elementSetSpecs())
            return specs if specs.extensible else specs.root
        if isinstance(ctx, P.InnerTypeElementContext):
            return ast.InnerTypeElement(self.constraint(ctx.constraint()), pos)
        if isinstance(ctx, P.InnerTypesElementContext):
            partial = ctx.ELLIPSIS() is not None
            items = []
            for named in ctx.namedConstraint():
                presence = None
                for token in (named.PRESENT(), named.ABSENT(), named.OPTIONAL()):
                    if token is not None:
                        presence = token.getText()
                constraint = self.constraint(named.constraint()) if named.constraint() else None
                items.append(ast.NamedConstraint(named.LREF().getText(), constraint, presence,
                                                 _pos(named)))
            return ast.InnerTypesElement(partial, items, pos)
        if isinstance(ctx, P.PatternElementContext):
            return ast.PatternElement(self.value(ctx.asnValue()), pos)
        if isinstance(ctx, P.SettingsElementContext):
            return ast.SettingsElement(cstring_text(ctx.CSTRING().getText()), pos)
        if isinstance(ctx, P.IncludesElementContext):
            return ast.TypeElement(self.type(ctx.asnType()), pos, includes=True)
        raise AssertionError(f"unknown element {type(ctx).__name__}")

    def endpoint(self, ctx: P.RangeEndpointContext):
        if ctx.MIN() is not None:
            return "MIN"
        if ctx.MAX() is not None:
            return "MAX"
        return self.value(ctx.asnValue())

    # ------------------------------------------------------------------ classes

    def class_definition(self, ctx: P.ObjectClassDefnContext) -> ast.ClassDefinition:
        fields = [self.field_spec(f) for f in ctx.fieldSpec()]
        syntax = None
        if ctx.withSyntaxSpec() is not None:
            syntax = self.syntax_items(ctx.withSyntaxSpec().syntaxList().tokenOrGroupSpec())
        return ast.ClassDefinition(fields, _pos(ctx), syntax)

    def field_spec(self, ctx) -> ast.FieldSpec:
        pos = _pos(ctx)
        name = ctx.start.text
        optional = ctx.OPTIONAL() is not None
        if isinstance(ctx, P.TypeFieldSpecContext):
            default = self.type(ctx.asnType()) if ctx.DEFAULT() is not None else None
            return ast.FieldSpec(name, "type", pos, optional=optional, default=default)
        default = self.value(ctx.asnValue()) if ctx.DEFAULT() is not None else None
        governor = self.type(ctx.asnType())
        if isinstance(ctx, P.ValueFieldSpecContext):
            return ast.FieldSpec(name, "value", pos, governor, ctx.UNIQUE() is not None,
                                 optional, default)
        return ast.FieldSpec(name, "set", pos, governor, False, optional, default)

    def syntax_items(self, specs) -> list[ast.SyntaxItem]:
        items = []
        for spec in specs:
            if spec.LBRACKET() is not None:
                items.append(ast.SyntaxGroup(self.syntax_items(spec.tokenOrGroupSpec()), _pos(spec)))
            else:
                token = spec.start
                if token.type in (L.TYPE_FIELD_REF, L.VALUE_FIELD_REF):
                    items.append(ast.SyntaxField(token.text, _tpos(token)))
                else:
                    items.append(ast.SyntaxLiteral(token.text, _tpos(token)))
        return items
