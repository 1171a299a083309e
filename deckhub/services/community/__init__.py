"""The community catalogue: players propose card facts and missing cards, curators review them.

No Flask here: the web pages (`deckhub.web.community`) and commands call these parts, each
importing the one that owns a name:

- `errors`: what the catalogue refuses (`CommunityError` and its kinds: `ProposalInvalid` with
  its errors by field, `NotAllowed`, `RateLimited`, `NotFound`).
- `fields`: what a player may propose for a card of a game (`proposable_fields`) and the checks
  every value, a source (a web address or `PRINTED`) and a missing card's identity pass.
- `rate_limits`: how many proposals a player may send per window and have waiting at once.
- `proposing`: `propose_facts` (corrections to a card), `propose_card` (a missing card) and
  `propose_batch` (many cells with one source, as the set editor sends them), scans attached;
  a proposal changes nothing in the catalogue.
- `set_editor`: the grid of a set that the set editor shows.
- `review_queue`: the waiting and reviewed proposals and batches, each as a diff against the card.
- `reviewing`: `approve` (every value checked again, then written into the card with its provenance,
  one `FactChange` per field and a new catalogue stamp, so every worker sees it at once),
  `reject`, `review_batch`.
- `card_rows`: how an approval and its revert write a card row's values, provenance and sources.
- `reverting`: undoing an approval, field by field, or removing a card an approval added.
- `audit`: a card's change history and where each of its known values came from.
- `export`: a game's catalogue, contributions included, written back in the `data/` format.
- `agreement`: every stored proposal's values for unknown fields are votes; two independent players
  agreeing apply a value, different values dispute it (`disputes_of`, `settle_dispute`), and a
  dispute whose majority has held for a week settles (`settle_due`).
- `timers`: the hourly queue job that runs `settle_due` (`deckhub settle-facts` runs it by hand).
- `trust`: players' standing (accepted facts less reverts), the rules that send a trusted player's
  submission to the queue, *Recently applied* and its checks.
- `staleness`: a proposal whose field changed since it was sent is held, its author told.
- `confirming`: *Confirm* enters someone's pending value as the player's own proposal.
- `notices`, `credit`: messages to authors, and a contributor's counts.
- `submissions`: the JSON API's proposals (one card or a batch) and their statuses.
- `work_lists`: a set's unknown facts, claims of collector numbers, and its progress.
- `dump`: the dated, versioned JSON dump of a game's catalogue with every fact's provenance.
"""
