"""Reading Kaijudo card text: normalising it (typos, quotes), splitting it into abilities, and the
filters, conditions and power boosts the pattern tables of `effects` build ops from."""
from __future__ import annotations

import re


CIVS = ("light", "water", "darkness", "fire", "nature")


NOOP = ("noop",)


_TYPOS = {
    "targer ": "target ", "creautre": "creature", " atacks": " attacks", "each tim ": "each time ",
    "battle field": "battle zone", "quot;": '"', "can’t": "can't", "gains +": "gets +", " get +": " gets +",
    "end of turn": "end of the turn", "that turn": "the turn", "each or your": "each of your",
    "fast attackattack": "fast attack", "othercreatures": "other creatures", "a apell": "a spell",
    "tap 1 less mana card": "tap 1 fewer mana cards", "all of your ": "all your ", '"., ': '". ', "tap thos ": "tap those ",
}


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "another": 1}


def norm(text: str) -> str:
    text = (text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
            .replace("\u2013", "-").replace("\u2014", " - ").lower())
    for wrong, right in _TYPOS.items():
        text = text.replace(wrong, right)
    text = re.sub(r"\s+", " ", text).strip().replace('."', '".').replace(',"', '",')
    return text


def _num(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS.get(word, 1)


def _singular(word: str) -> str:
    word = word.strip()
    if word.endswith(" creatures") or word.endswith(" creature"):
        word = word.rsplit(" ", 1)[0]
    if word in ("colossi",):
        return "colossus"
    if word.endswith("kin"):
        return word
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def group_matcher(phrase: str) -> tuple:
    """"nature creatures", "drakons", "corrupted creatures" -> a filter pair."""
    word = _singular(phrase)
    if word in CIVS:
        return ("civ", word)
    if word in ("creature", ""):
        return ("any", True)
    if word == "evolution":
        return ("evolution", True)
    return ("race", word)


def _filter_from(words: str) -> tuple | None:
    """"non-evolution creature that is level 5 or less", "spell", "card", "megabug", ... -> filter."""
    w = words.strip()
    filt: list[tuple] = []
    m = re.search(r" that (?:is|are) level (\d+) or less", w)
    if m:
        filt.append(("max_level", int(m.group(1))))
        w = w[:m.start()] + w[m.end():]
    m = re.search(r" (?:that|and) (?:has|have) \"(\w+)\"", w)
    if m:
        filt.append(("has", m.group(1)))
        w = w[:m.start()] + w[m.end():]
    m = re.search(r" that (?:has|have) power (\d+) or more", w)
    if m:
        filt.append(("min_power", int(m.group(1))))
        w = w[:m.start()] + w[m.end():]
    m = re.match(r"^(?:card|creature|spell) named (.+)$", w)
    if m:
        return (("name", m.group(1).strip()),)
    w = w.strip()
    if w.startswith("non-evolution "):
        filt.append(("non_evo", True))
        w = w[len("non-evolution "):]
    if w in ("card", "cards"):
        pass
    elif w in ("creature", "creatures"):
        filt.append(("creature", True))
    elif w in ("spell", "spells"):
        filt.append(("spell", True))
    elif re.fullmatch(rf"(?:{'|'.join(CIVS)}) (?:spell|creature)s?", w):
        civ, kind = w.split()
        filt += [("spell", True) if kind.startswith("spell") else ("creature", True), ("civ", civ)]
    elif w in ("evolution creature", "evolution creatures"):
        filt += [("creature", True), ("evolution", True)]
    elif re.fullmatch(r"[a-z\- ]+", w) and len(w.split()) <= 3:
        civ_or_race = group_matcher(w)
        filt += [("creature", True), civ_or_race]
    else:
        return None
    return tuple(filt)


_KEYWORDS = {
    "double breaker": ("breaker", 2), "triple breaker": ("breaker", 3), "fast attack": ("fast", True),
    "guard": ("guard", True), "skirmisher": ("skirmisher", True), "blocker": ("blocker", True),
    "slayer": ("slayer", True), "protector": ("protector", None), "shield blast": ("shield_blast", None),
}


def split_abilities(text: str | None) -> list[tuple[str, str, list[str], str]]:
    """(original text, normalized body without its name or reminder text, modes, ability name) per ability."""
    if not text:
        return []
    # a reminder text's ")" run into the next ability's name ("...can't attack.)Angry Swarm"): a new line
    text = re.sub(r"\)(?=[A-Z])", ")\n", text)
    lines = [l.strip() for l in text.split("\n")]
    out: list[tuple[str, str, list[str], str]] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        i += 1
        if not raw:
            continue
        body = norm(raw)
        if body.startswith("(") and re.search(r"enters your? mana zone tapped", body):
            out.append((raw, "this card enters your mana zone tapped", [], ""))
            continue
        body = re.sub(r"\s*\([^()]*\)?", "", body).strip()  # reminder text (also an unclosed one)
        body = body.rstrip(")").strip()
        name = ""
        m = re.match(r"^([^.\"]{1,45}?) - (.+)$", body)
        if m and not m.group(1).startswith("-"):
            name, body = m.group(1).strip(), m.group(2).strip()
            if name in ("evolution", "vortex evolution"):
                body = f"{name} - {body}"
        modes: list[str] = []
        if body.endswith("choose one:"):
            while i < len(lines) and lines[i].lstrip().startswith(("-", "\u2022", "\u2013")):
                modes.append(norm(re.sub(r"\s*\([^()]*\)", "", lines[i].strip().lstrip("-\u2022\u2013 "))))
                raw += "\n" + lines[i].strip()
                i += 1
        body = body.rstrip(".").strip()
        if body and "," in body and all(p.strip() in _KEYWORDS for p in body.split(",")):
            for part in body.split(","):
                out.append((part.strip().title(), part.strip(), [], ""))
            continue
        out.append((raw, body, modes, name))
    return out


_OURS = re.compile(r"\byour (deck|hand|mana|discard|shields?|creatures?|other|evolution|turn)\b|\byou (may )?(draw|put|return|cast)|\bdraw|"
                   r"this creature (gets|has|breaks)|breaks? (that|those|an additional|one|\d+) shields?|\bclash|\bshields?\b")


def _enemy_only(text: str) -> bool:
    """Text about enemy creatures or the opponent only, touching nothing of yours."""
    return bool(re.search(r"\benemy\b|\bopponent", text)) and not _OURS.search(text)


_WHO = [
    (r"(?:choose )?one of your other creatures that has \"skirmisher\"\. it", "choose_skirmisher"),
    (r"(?:choose )?one of your (?:other )?creatures\. (?:it|that creature)", None),
    (r"(?:choose )?one of your other creatures", "choose_other"),
    (r"(?:choose )?one of your creatures", "choose"),
    (r"each of your other creatures|all your other creatures", "all_other"),
    (r"each of your creatures|all your creatures", "all"),
    (r"this creature|it", "self"),
    (r"the triggering creature", "trigger"),
]


def _boost_items(text: str) -> tuple | None:
    """"+2000 power and \"double breaker\"" -> (("power", 2000), ("breaker", 2)); None if unknown."""
    items: list[tuple] = []
    for part in re.split(r",? and |, ", text):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(?:gets? |gains? )?\+(\d+) power", part)
        if m:
            items.append(("power", int(m.group(1))))
            continue
        m = re.fullmatch(r"(?:gets? |gains? |has )?\"(fast attack|double breaker|triple breaker|slayer|blocker)\"", part)
        if m:
            kw = m.group(1)
            items.append({"fast attack": ("fast", 1), "double breaker": ("breaker", 2), "triple breaker": ("breaker", 3)}.get(kw, ("noop", 0)))
            continue
        m = re.fullmatch(r"(?:gets? |gains? |has )?\"powerful attack \+(\d+)\"", part)
        if m:
            items.append(("powerful_attack", int(m.group(1))))
            continue
        if re.fullmatch(r"(?:can't be blocked(?: this turn)?|have \"slayer\"|has \"slayer\")", part):
            items.append(("noop", 0))
            continue
        if re.fullmatch(r"(?:can )?attack untapped creatures(?: this turn)?(?: as though they were tapped)?", part):
            items.append(("noop", 0))
            continue
        if re.fullmatch(r"(?:and )?can attack (?:this turn )?as though (?:it|they) didn't have (?:that ability|\"skirmisher\"|those abilities)(?: this turn)?", part):
            items.append(("attack_players", 1))
            continue
        if re.fullmatch(r"breaks? an additional shield(?: this turn)?", part):
            items.append(("extra_break", 1))
            continue
        return None
    return tuple(items)


def _boost_ops(s: str) -> tuple | None:
    s = re.sub(r"(?: until the end of the turn| this turn)$", "", s)
    for m in re.finditer(r" (gets?|gains?|has|can attack) ", s):
        subject, verb, rest = s[:m.start()], m.group(1), s[m.end():]
        who = None
        for pattern, name in _WHO:
            if re.fullmatch(pattern, subject):
                who = name
                if name is None:
                    who = "choose_other" if " other " in subject else "choose"
                break
        if who is not None:
            break
    else:
        return None
    if verb == "can attack":
        rest = "can attack " + rest
    elif verb.startswith("gets") or verb.startswith("get"):
        rest = rest
    items = _boost_items(rest.replace(" until the end of the turn", ""))
    if items is None:
        return None
    real = tuple(i for i in items if i[0] != "noop")
    if not real:
        return (NOOP,)
    return (("boost", who, real),)


def _look_ops(body: str) -> tuple | None:
    """"look at the top N cards of your deck. ..." and "search your deck. ..." effects."""
    m = re.fullmatch(r"look at the top (\d+|card) (?:cards )?of your deck\. (.+?)\.? put the rest (?:on the bottom of your deck(?: in any order)?|into your hand)", body)
    if m:
        n = 1 if m.group(1) == "card" else int(m.group(1))
        rest = "hand" if body.endswith("into your hand") else "bottom"
        what = m.group(2)
        specs = []
        for part in re.split(r", and ", what):
            part = part.strip().rstrip(".")
            pm = re.fullmatch(r"(you may )?(?:put|reveal) (one|\d+|an?|any number of|any number) (?:of them|(.+?) from among them(?: that (?:each )?(?:has|have) power (\d+) or more)?)(?: and put (?:it|them|those creatures))?\s(?:in)?to (?:your hand|the battle zone)", part)
            if not pm:
                pm2 = re.fullmatch(r"(you may )?reveal (any number of|an?) (.+?) from among them(?: that (?:each )?(?:has|have) power (\d+) or more)? and put (?:it|them|those creatures) into your hand", part)
                if not pm2:
                    return None
                optional, count_word, what_words, power = pm2.group(1), pm2.group(2), pm2.group(3), pm2.group(4)
                dest = "hand"
            else:
                optional, count_word, what_words, power = pm.group(1), pm.group(2), pm.group(3), pm.group(4)
                dest = "battle" if "battle zone" in part else "hand"
            filt: tuple = ()
            if what_words:
                f = _filter_from(what_words)
                if f is None:
                    return None
                filt = f
            if power:
                filt = filt + (("min_power", int(power)),)
            count = n if count_word.startswith("any") else (_num(count_word) if count_word not in ("a", "an") else 1)
            specs.append((dest, filt, count, bool(optional) or count_word.startswith("any")))
        return (("look", n, tuple(specs), rest),)
    m = re.fullmatch(r"look at the top (\d+) cards of your deck\. put (one|\d+) of them into your hand and the other (?:one )?(?:on the bottom of your deck|into your (mana zone))", body)
    if m:
        n, k = int(m.group(1)), _num(m.group(2))
        rest = "mana" if m.group(3) else "bottom"
        return (("look", n, (("hand", (), k, False),), rest),)
    m = re.fullmatch(r"search your deck\. (?:you may )?(?:take|reveal|put) an? (.+?) from (?:your deck|it)(?: and put (?:it|that card|that creature) into your hand| into the battle zone|(?: and put (?:it|that card|that creature) into the battle zone))\. then shuffle your deck", body)
    if m:
        words = m.group(1)
        filt = () if words == "card" else _filter_from(words)
        if filt is None:
            return None
        dest = "battle" if "battle zone" in body else "hand"
        return (("search", filt, dest, "you may" in body),)
    m = re.fullmatch(r"search your deck\. take a card from it and put that card into your hand\. then shuffle your deck", body)
    if m:
        return (("search", (), "hand", False),)
    return None


def _is_noop(ops: tuple) -> bool:
    return all(op == NOOP for op in ops)


def _group_filter(text: str) -> tuple | None:
    """"corrupted creatures", "creatures that are level 4 or less", "dragons" -> a filter."""
    text = text.strip()
    filt: list[tuple] = []
    m = re.search(r" that (?:are|is) level (\d+) or less$", text)
    if m:
        filt.append(("max_level", int(m.group(1))))
        text = text[:m.start()]
    m = re.search(r" that (?:have|has) power (\d+) or more$", text)
    if m:
        filt.append(("min_power_now", int(m.group(1))))
        text = text[:m.start()]
    m = re.search(r" that (?:have|has) \"(\w+)\"$", text)
    if m:
        filt.append(("has", m.group(1)))
        text = text[:m.start()]
    if not re.fullmatch(r"[a-z\- ]+", text) or len(text.split()) > 3:
        return None
    matcher = group_matcher(text)
    if matcher != ("any", True):
        filt.append(matcher)
    return tuple(filt)


def _cost_condition(text: str) -> tuple | None:
    """"you have 2 or more spells in your discard pile", "your opponent has 2 or fewer shields" ..."""
    m = re.fullmatch(r"you have (\d+) or more (creatures|spells|cards) in your (discard pile|battle zone|mana zone)", text)
    if m:
        zone = {"discard pile": "discard", "battle zone": "battle", "mana zone": "mana"}[m.group(3)]
        return ("at_least", zone, _filter_from(m.group(2)), int(m.group(1)))
    m = re.fullmatch(r"you have (\d+) or more creatures in the battle zone(?: that have \"(\w+)\")?", text)
    if m:
        filt = (("creature", True),) + ((("has", m.group(2)),) if m.group(2) else ())
        return ("at_least", "battle", filt, int(m.group(1)))
    m = re.fullmatch(r"your opponent has (\d+) or fewer shields", text)
    if m:
        return ("dummy_shields_le", int(m.group(1)))
    return None


def _condition(text: str) -> tuple | None:
    """The condition of "while ..., this creature ..." -> a tuple the engine evaluates."""
    text = text.strip()
    if text in ("you have an evolution creature in the battle zone",):
        return ("has", (("evolution", True),), False)
    if text in ("you have no other creatures in the battle zone",):
        return ("alone",)
    if text in ("you have no cards in your hand",):
        return ("empty_hand",)
    m = re.fullmatch(r"all (?:the )?cards in your mana zone are (\w+) cards", text)
    if m and m.group(1) in CIVS:
        return ("mana_all", m.group(1))
    m = re.fullmatch(r"you have (another|an?) (.+?) in the battle zone", text)
    if m:
        filt = _group_filter(m.group(2) + ("" if m.group(2).endswith("creature") else ""))
        if filt is None:
            return None
        return ("has", filt, m.group(1) == "another")
    if text == "attacking":
        return ("attacking",)
    return None


def phrase_of(text: str) -> str:
    """An unautomated ability as a phrase to count: name and reminder text dropped, numbers as N."""
    body = norm(text.split("\n")[0])
    body = re.sub(r"\s*\([^()]*\)?", "", body)
    m = re.match(r"^([^.\"]{1,45}?) - (.+)$", body)
    if m and not m.group(1).startswith("-"):
        body = m.group(2)
    return re.sub(r"\d+", "N", body).strip().rstrip(".")
