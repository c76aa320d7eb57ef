"""The bundled ``loopy`` plugin: rulesets whose positions repeat (tokens on digraphs,
backsliding Toads and Frogs), solved with draws by the core's retrograde and generalized
Sprague-Grundy solvers."""
