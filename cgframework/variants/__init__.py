"""Rulesets made from rulesets: the impartial, dicotic (all-small) and twisted variants of any
ruleset, as CGSuite defines them (``Ruleset.ImpartialVariant`` and friends). A variant wraps
its base ruleset and rewrites the options of every position; the registry answers a name such
as ``impartial:domineering`` with one, and ``cgf solve --variant impartial`` is the same.

``impartial(ruleset)``, ``dicotic(ruleset)`` and ``twisted(ruleset)`` build them; which of the
base's shortcuts (components, cache keys, negatives) each keeps is said in
:mod:`cgframework.variants.rulesets`.
"""

from cgframework.variants.rulesets import (
    VARIANTS,
    DicoticVariant,
    ImpartialVariant,
    Negated,
    TwistedVariant,
    VariantError,
    VariantRuleset,
    base_name,
    dicotic,
    impartial,
    of_name,
    split_name,
    twisted,
    variant,
)

__all__ = [
    "VARIANTS",
    "DicoticVariant",
    "ImpartialVariant",
    "Negated",
    "TwistedVariant",
    "VariantError",
    "VariantRuleset",
    "base_name",
    "dicotic",
    "impartial",
    "of_name",
    "split_name",
    "twisted",
    "variant",
]
