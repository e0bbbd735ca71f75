"""The catalog's vocabulary: kinds of items, provenances, rate notations, directions and
neighbouring relations (plain constants, importable without SymPy, e.g. by the CLI's
argument parser)."""

KINDS = ("algorithm", "definition", "assumption", "lemma", "theorem", "corollary",
         "proposition", "remark-claim", "prior-work-rate")
PROVENANCE = ("printed", "literal", "reconstructed", "reconstructed-constants-unknown", "corrected")
RATE_NOTATIONS = ("O", "Otilde", "Omega", "Theta")
DIRECTIONS = ("upper", "lower")
#: Neighbouring relations of a sensitivity: replace one record (substitution), or add or
#: remove one record.
RELATIONS = ("replace-one", "add-remove")

__all__ = ["KINDS", "PROVENANCE", "RATE_NOTATIONS", "DIRECTIONS", "RELATIONS"]
