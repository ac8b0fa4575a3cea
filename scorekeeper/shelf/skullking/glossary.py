"""The names of Skull King's cards and abilities in each language: one word for one thing, on every page.

The translations must use these (a test holds every message to them): a player reads "Loot" in
the card's heading and "Loot" in the refusal below it, never a second name for the same card.
"""

from __future__ import annotations

# The editions print these names in English in every language, so the app does too.
KEPT_IN_ENGLISH = ("Harry the Giant", "Rascal of Roatán", "Loot", "Kraken", "White Whale", "Mermaid", "Skull King",
                   "Tigress", "Scary Mary", "Escape", "First Mate Con", "Davy Jones")

# The others: English name (as the messages write it, any case) → the forms a sentence may bend
# the language's name into (plural, verb), the name first.
TRANSLATED: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {"wager": ("Einsatz", "Einsätze", "setzen"), "grapeshot": ("Kartätsche",),
           "cannonball": ("Kanonenkugel",), "pirate": ("Pirat",)},
    "fr": {"wager": ("mise", "misent"), "grapeshot": ("mitraille",), "cannonball": ("boulet de canon",),
           "pirate": ("pirate",)},
    "it": {"wager": ("puntata", "puntate", "puntano"), "grapeshot": ("mitraglia",),
           "cannonball": ("palla di cannone",), "pirate": ("pirat",)},
}

GLOSSARY: dict[str, dict[str, tuple[str, ...]]] = {
    language: {**{name: (name,) for name in KEPT_IN_ENGLISH}, **terms} for language, terms in TRANSLATED.items()}
