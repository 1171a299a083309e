"""The pure completeness counts (deckhub.core.completeness) on a small made-up catalogue."""
from __future__ import annotations

from deckhub.core.cards import Card, CardSet, Catalogue, Printing
from deckhub.core.completeness import completeness


def test_counts_per_set_and_field_by_provenance():
    sets = [CardSet("b", "Second", 10, position=2), CardSet("a", "First", 3, position=1)]
    cards = [
        Card("x", "g", "X", type="Item", attrs={"bank": 2}, provenance={"type": "derived", "bank": "contributed"},
             printings=(Printing("a", "1"), Printing("b", "1"), Printing("a", "1b"))),
        Card("y", "g", "Y", type="Item", attrs={"bank": 0}, printings=(Printing("a", "2"),)),
        Card("z", "g", "Z", type=None, text="", attrs={"bank": None, "tags": []}, printings=(Printing("b", "2"),)),
        Card("w", "g", "W", type="Hero", text="Draws a card."),  # in no set
    ]
    result = completeness(Catalogue("g", cards, sets), ["type", "bank", "tags", "text"])
    assert [s.code for s in result.sets] == ["a", "b"]
    first, second = result.sets
    assert first.cards == 2 and second.cards == 2 and result.total.cards == 4
    assert first.fields["type"].to_json() == {"known": 2, "imported": 1, "derived": 1, "contributed": 0}
    assert first.fields["bank"].to_json() == {"known": 2, "imported": 1, "derived": 0, "contributed": 1}  # 0 is known
    assert second.fields["bank"].known == 1 and second.fields["tags"].known == 0 and second.fields["text"].known == 0
    assert result.total.fields["text"].known == 1 and result.total.fields["type"].known == 3
    body = result.to_json()
    assert body["cards"] == 4 and body["sets"][0] == {"code": "a", "name": "First", "size": 3, "cards": 2,
                                                      "fields": {k: v.to_json() for k, v in first.fields.items()}}
