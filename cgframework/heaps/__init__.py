"""Heap games of any rule: the authoring base :class:`~cgframework.heaps.rules.HeapRuleset`
(the author writes a name and ``heap_options(n)``; parsing, sums, keys, pictures, clicks and
a ``heaps`` family are derived), the table engine that computes Grundy sequences of any
heap rule (:mod:`~cgframework.heaps.table`), observed periods and saltus
(:mod:`~cgframework.heaps.periods`), misère quotients (:mod:`~cgframework.heaps.quotient`)
and misère genus sequences (:mod:`~cgframework.heaps.genus`).

A plugin that knows more about some rules (a compiled kernel, a periodicity theorem for
take-and-break codes) registers a :class:`~cgframework.extensions.HeapEngine` through the
``register_heap_engines`` hook; the core never imports a plugin.
"""

from cgframework.heaps.rules import HeapRuleset, Heaps, format_heaps, parse_heaps

__all__ = ["HeapRuleset", "Heaps", "format_heaps", "parse_heaps"]
