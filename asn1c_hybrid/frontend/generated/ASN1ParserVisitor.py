# Generated from ASN1Parser.g4 by ANTLR 4.13.2
from antlr4 import *
if "." in __name__:
    from .ASN1Parser import ASN1Parser
else:
    from ASN1Parser import ASN1Parser

# This class defines a complete generic visitor for a parse tree produced by ASN1Parser.

class ASN1ParserVisitor(ParseTreeVisitor):

    # Visit a parse tree produced by ASN1Parser#moduleDefinitions.
    def visitModuleDefinitions(self, ctx:ASN1Parser.ModuleDefinitionsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#moduleDefinition.
    def visitModuleDefinition(self, ctx:ASN1Parser.ModuleDefinitionContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#definitiveIdentification.
    def visitDefinitiveIdentification(self, ctx:ASN1Parser.DefinitiveIdentificationContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#encodingReferenceDefault.
    def visitEncodingReferenceDefault(self, ctx:ASN1Parser.EncodingReferenceDefaultContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#tagDefault.
    def visitTagDefault(self, ctx:ASN1Parser.TagDefaultContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#extensionDefault.
    def visitExtensionDefault(self, ctx:ASN1Parser.ExtensionDefaultContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#moduleBody.
    def visitModuleBody(self, ctx:ASN1Parser.ModuleBodyContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#exports.
    def visitExports(self, ctx:ASN1Parser.ExportsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#imports.
    def visitImports(self, ctx:ASN1Parser.ImportsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#symbolsFromModule.
    def visitSymbolsFromModule(self, ctx:ASN1Parser.SymbolsFromModuleContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#globalModuleReference.
    def visitGlobalModuleReference(self, ctx:ASN1Parser.GlobalModuleReferenceContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#assignedIdentifier.
    def visitAssignedIdentifier(self, ctx:ASN1Parser.AssignedIdentifierContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#symbolList.
    def visitSymbolList(self, ctx:ASN1Parser.SymbolListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#symbol.
    def visitSymbol(self, ctx:ASN1Parser.SymbolContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#referenceName.
    def visitReferenceName(self, ctx:ASN1Parser.ReferenceNameContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#encodingControlSection.
    def visitEncodingControlSection(self, ctx:ASN1Parser.EncodingControlSectionContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#typeOrClassAssignment.
    def visitTypeOrClassAssignment(self, ctx:ASN1Parser.TypeOrClassAssignmentContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#setAssignment.
    def visitSetAssignment(self, ctx:ASN1Parser.SetAssignmentContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueAssignment.
    def visitValueAssignment(self, ctx:ASN1Parser.ValueAssignmentContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#upperValueAssignment.
    def visitUpperValueAssignment(self, ctx:ASN1Parser.UpperValueAssignmentContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#macroDefinition.
    def visitMacroDefinition(self, ctx:ASN1Parser.MacroDefinitionContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#macroValueAssignment.
    def visitMacroValueAssignment(self, ctx:ASN1Parser.MacroValueAssignmentContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#typeAssignmentName.
    def visitTypeAssignmentName(self, ctx:ASN1Parser.TypeAssignmentNameContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#macroNotation.
    def visitMacroNotation(self, ctx:ASN1Parser.MacroNotationContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#parameterList.
    def visitParameterList(self, ctx:ASN1Parser.ParameterListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#parameter.
    def visitParameter(self, ctx:ASN1Parser.ParameterContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#actualParameterList.
    def visitActualParameterList(self, ctx:ASN1Parser.ActualParameterListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#actualParameter.
    def visitActualParameter(self, ctx:ASN1Parser.ActualParameterContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#taggedType.
    def visitTaggedType(self, ctx:ASN1Parser.TaggedTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#collectionType.
    def visitCollectionType(self, ctx:ASN1Parser.CollectionTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#plainType.
    def visitPlainType(self, ctx:ASN1Parser.PlainTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#booleanType.
    def visitBooleanType(self, ctx:ASN1Parser.BooleanTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#nullType.
    def visitNullType(self, ctx:ASN1Parser.NullTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#realType.
    def visitRealType(self, ctx:ASN1Parser.RealTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#integerType.
    def visitIntegerType(self, ctx:ASN1Parser.IntegerTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#enumeratedType.
    def visitEnumeratedType(self, ctx:ASN1Parser.EnumeratedTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#bitStringType.
    def visitBitStringType(self, ctx:ASN1Parser.BitStringTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#octetStringType.
    def visitOctetStringType(self, ctx:ASN1Parser.OctetStringTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#objectIdentifierType.
    def visitObjectIdentifierType(self, ctx:ASN1Parser.ObjectIdentifierTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#embeddedPdvType.
    def visitEmbeddedPdvType(self, ctx:ASN1Parser.EmbeddedPdvTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#characterStringType.
    def visitCharacterStringType(self, ctx:ASN1Parser.CharacterStringTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#simpleType.
    def visitSimpleType(self, ctx:ASN1Parser.SimpleTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#anyType.
    def visitAnyType(self, ctx:ASN1Parser.AnyTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#sequenceType.
    def visitSequenceType(self, ctx:ASN1Parser.SequenceTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#setType.
    def visitSetType(self, ctx:ASN1Parser.SetTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#choiceType.
    def visitChoiceType(self, ctx:ASN1Parser.ChoiceTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#instanceOfType.
    def visitInstanceOfType(self, ctx:ASN1Parser.InstanceOfTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#selectionType.
    def visitSelectionType(self, ctx:ASN1Parser.SelectionTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#referencedType.
    def visitReferencedType(self, ctx:ASN1Parser.ReferencedTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#simpleBuiltinType.
    def visitSimpleBuiltinType(self, ctx:ASN1Parser.SimpleBuiltinTypeContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#tag.
    def visitTag(self, ctx:ASN1Parser.TagContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#tagClass.
    def visitTagClass(self, ctx:ASN1Parser.TagClassContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#tagNumber.
    def visitTagNumber(self, ctx:ASN1Parser.TagNumberContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#namedNumberList.
    def visitNamedNumberList(self, ctx:ASN1Parser.NamedNumberListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#namedNumber.
    def visitNamedNumber(self, ctx:ASN1Parser.NamedNumberContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#signedNumber.
    def visitSignedNumber(self, ctx:ASN1Parser.SignedNumberContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#enumerations.
    def visitEnumerations(self, ctx:ASN1Parser.EnumerationsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#enumerationItem.
    def visitEnumerationItem(self, ctx:ASN1Parser.EnumerationItemContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#componentList.
    def visitComponentList(self, ctx:ASN1Parser.ComponentListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#extensionMarker.
    def visitExtensionMarker(self, ctx:ASN1Parser.ExtensionMarkerContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#extensionGroup.
    def visitExtensionGroup(self, ctx:ASN1Parser.ExtensionGroupContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#componentsOf.
    def visitComponentsOf(self, ctx:ASN1Parser.ComponentsOfContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#namedComponent.
    def visitNamedComponent(self, ctx:ASN1Parser.NamedComponentContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#exceptionSpec.
    def visitExceptionSpec(self, ctx:ASN1Parser.ExceptionSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#typeReference.
    def visitTypeReference(self, ctx:ASN1Parser.TypeReferenceContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueReference.
    def visitValueReference(self, ctx:ASN1Parser.ValueReferenceContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#fieldName.
    def visitFieldName(self, ctx:ASN1Parser.FieldNameContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#blockValue.
    def visitBlockValue(self, ctx:ASN1Parser.BlockValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#keywordValue.
    def visitKeywordValue(self, ctx:ASN1Parser.KeywordValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#numberValue.
    def visitNumberValue(self, ctx:ASN1Parser.NumberValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#cstringValue.
    def visitCstringValue(self, ctx:ASN1Parser.CstringValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#bstringValue.
    def visitBstringValue(self, ctx:ASN1Parser.BstringValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#hstringValue.
    def visitHstringValue(self, ctx:ASN1Parser.HstringValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#choiceValue.
    def visitChoiceValue(self, ctx:ASN1Parser.ChoiceValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#openTypeValue.
    def visitOpenTypeValue(self, ctx:ASN1Parser.OpenTypeValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#referencedValue.
    def visitReferencedValue(self, ctx:ASN1Parser.ReferencedValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#containingValue.
    def visitContainingValue(self, ctx:ASN1Parser.ContainingValueContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#block.
    def visitBlock(self, ctx:ASN1Parser.BlockContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#constraint.
    def visitConstraint(self, ctx:ASN1Parser.ConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#sizeConstraint.
    def visitSizeConstraint(self, ctx:ASN1Parser.SizeConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#constraintSpec.
    def visitConstraintSpec(self, ctx:ASN1Parser.ConstraintSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#userDefinedConstraint.
    def visitUserDefinedConstraint(self, ctx:ASN1Parser.UserDefinedConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#componentRelationConstraint.
    def visitComponentRelationConstraint(self, ctx:ASN1Parser.ComponentRelationConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#contentsConstraint.
    def visitContentsConstraint(self, ctx:ASN1Parser.ContentsConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#encodedByConstraint.
    def visitEncodedByConstraint(self, ctx:ASN1Parser.EncodedByConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#atNotation.
    def visitAtNotation(self, ctx:ASN1Parser.AtNotationContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#elementSetSpecs.
    def visitElementSetSpecs(self, ctx:ASN1Parser.ElementSetSpecsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#extraMarker.
    def visitExtraMarker(self, ctx:ASN1Parser.ExtraMarkerContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#elementSetSpec.
    def visitElementSetSpec(self, ctx:ASN1Parser.ElementSetSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#unions.
    def visitUnions(self, ctx:ASN1Parser.UnionsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#intersections.
    def visitIntersections(self, ctx:ASN1Parser.IntersectionsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#intersectionElements.
    def visitIntersectionElements(self, ctx:ASN1Parser.IntersectionElementsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#nestedElements.
    def visitNestedElements(self, ctx:ASN1Parser.NestedElementsContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#sizeElement.
    def visitSizeElement(self, ctx:ASN1Parser.SizeElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#permittedAlphabetElement.
    def visitPermittedAlphabetElement(self, ctx:ASN1Parser.PermittedAlphabetElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#innerTypeElement.
    def visitInnerTypeElement(self, ctx:ASN1Parser.InnerTypeElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#innerTypesElement.
    def visitInnerTypesElement(self, ctx:ASN1Parser.InnerTypesElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#patternElement.
    def visitPatternElement(self, ctx:ASN1Parser.PatternElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#settingsElement.
    def visitSettingsElement(self, ctx:ASN1Parser.SettingsElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#includesElement.
    def visitIncludesElement(self, ctx:ASN1Parser.IncludesElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueRangeElement.
    def visitValueRangeElement(self, ctx:ASN1Parser.ValueRangeElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#typeElement.
    def visitTypeElement(self, ctx:ASN1Parser.TypeElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueElement.
    def visitValueElement(self, ctx:ASN1Parser.ValueElementContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#rangeEndpoint.
    def visitRangeEndpoint(self, ctx:ASN1Parser.RangeEndpointContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#namedConstraint.
    def visitNamedConstraint(self, ctx:ASN1Parser.NamedConstraintContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#objectClassDefn.
    def visitObjectClassDefn(self, ctx:ASN1Parser.ObjectClassDefnContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#typeFieldSpec.
    def visitTypeFieldSpec(self, ctx:ASN1Parser.TypeFieldSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueFieldSpec.
    def visitValueFieldSpec(self, ctx:ASN1Parser.ValueFieldSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueSetFieldSpec.
    def visitValueSetFieldSpec(self, ctx:ASN1Parser.ValueSetFieldSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#withSyntaxSpec.
    def visitWithSyntaxSpec(self, ctx:ASN1Parser.WithSyntaxSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#syntaxList.
    def visitSyntaxList(self, ctx:ASN1Parser.SyntaxListContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#tokenOrGroupSpec.
    def visitTokenOrGroupSpec(self, ctx:ASN1Parser.TokenOrGroupSpecContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#typeOnly.
    def visitTypeOnly(self, ctx:ASN1Parser.TypeOnlyContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#valueOnly.
    def visitValueOnly(self, ctx:ASN1Parser.ValueOnlyContext):
        return self.visitChildren(ctx)


    # Visit a parse tree produced by ASN1Parser#elementSetSpecsOnly.
    def visitElementSetSpecsOnly(self, ctx:ASN1Parser.ElementSetSpecsOnlyContext):
        return self.visitChildren(ctx)



del ASN1Parser