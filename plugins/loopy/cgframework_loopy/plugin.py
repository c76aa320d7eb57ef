"""Hook implementations of the ``loopy`` plugin (entry point ``loopy``)."""

from __future__ import annotations

from cgframework import hookimpl
from cgframework_loopy.digraph import DigraphRuleset, PartizanDigraphRuleset
from cgframework_loopy.foxgeese import FoxAndGeese
from cgframework_loopy.toads import BackslidingToadsAndFrogs


@hookimpl
def register_rulesets(register):
    for ruleset in (
        DigraphRuleset(),
        PartizanDigraphRuleset(),
        BackslidingToadsAndFrogs(),
        FoxAndGeese(),
    ):
        register(ruleset)
