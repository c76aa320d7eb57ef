"""Imported records answer only once verified: every record recomputed within a CPU budget
(the rest stored unverified, never answered from by default), `verify --all` promoting the
right ones, provenance that tells computed, cluster, verified, signed and unverified rows
apart, and exports signed with Ed25519 keys."""

from __future__ import annotations

import base64
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cgframework.store.check as check
from cgframework import get_registry, parse_position, solve
from cgframework.game import Player
from cgframework.store.database import ValueStore, position_key
from cgframework.testing import run_cli

HEAPS = 100
POISON = {"value": "0", "outcome": "P", "grundy": 0}
"""Kayles heap 100 changed consistently (value, outcome and Grundy value agree): only a
recomputation tells."""


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict[str, Path]:
    """A clean export of Kayles heaps 1..100 and the same with heap 100 poisoned."""
    folder = tmp_path_factory.mktemp("exports")
    with ValueStore(folder / "s.sqlite") as store:
        for n in range(1, HEAPS + 1):
            solve("kayles", str(n), store=store)
        records = [json.loads(json.dumps(r)) for r in store.records()]
    clean = folder / "clean.jsonl"
    clean.write_text("".join(json.dumps(r) + "\n" for r in records))
    for record in records:
        if record["position"] == str(HEAPS):
            record["solution"].update(POISON)
    poisoned = folder / "poisoned.jsonl"
    poisoned.write_text("".join(json.dumps(r) + "\n" for r in records))
    return {"clean": clean, "poisoned": poisoned}


TRUE_VALUE = "*"
"""Kayles heap 100's value (nim-value 1)."""


def _heap_value(capsys, store: Path) -> dict:
    code, out, err = run_cli(capsys, "solve", "kayles", str(HEAPS), "--store", str(store), "--json")
    assert code == 0, err
    return json.loads(out)


def test_true_value_of_the_poisoned_heap():
    assert str(solve("kayles", str(HEAPS)).value) == TRUE_VALUE != POISON["value"]


@pytest.mark.parametrize("seed", range(20))
def test_a_consistently_changed_record_is_never_answered_from(seed, exports, tmp_path, capsys):
    """The sample import of old (16 of 100 records recomputed) let the record in 19 times in
    20; now it is refused or stored unverified, and solve, sweep and verify never take it."""
    source = str(exports["poisoned"])
    args = ("--verify", "16", "--seed", str(seed))
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    code, _, err = run_cli(capsys, "store", "import", str(first), source, *args)
    if code == 2:  # the sample reached the record: the whole import is refused
        assert ": kayles 100: the record says 0, recomputed *" in err, err
        assert not first.exists()
        return
    assert code == 0 and "unverified" in err, err
    code, out, err = run_cli(capsys, "store", "verify", str(first), "--seed", str(seed))
    assert code == 1 or "unverified imported records: not answered from" in err, (out, err)
    solved = _heap_value(capsys, first)
    assert solved["value"] == TRUE_VALUE and "from_store" not in solved
    assert run_cli(capsys, "store", "import", str(second), source, *args)[0] == 0
    code, out, err = run_cli(
        capsys, "sweep", "kayles", "heaps", "--from", "99", "--to", "100", "--store", str(second)
    )
    assert code == 0, err
    assert json.loads(out.splitlines()[-1])["value"] == TRUE_VALUE


def test_the_default_import_recomputes_every_record_within_its_budget(exports, tmp_path, capsys):
    store = tmp_path / "s.sqlite"
    code, _, err = run_cli(capsys, "store", "import", str(store), str(exports["poisoned"]))
    assert code == 2 and err.count("\n") == 1 and ": kayles 100: the record says 0" in err, err
    assert not store.exists()
    code, _, err = run_cli(capsys, "store", "import", str(store), str(exports["clean"]))
    assert code == 0 and f"recomputed {HEAPS}, added {HEAPS}" in err, err
    assert "unverified" not in err
    code, out, _ = run_cli(capsys, "store", "info", str(store), "--json")
    info = json.loads(out)
    assert info["unverified"] == 0 and info["provenance"] == {"verified import": HEAPS}
    assert _heap_value(capsys, store)["from_store"] is True


def test_records_past_the_cpu_budget_are_stored_unverified_in_file_order(
    exports, tmp_path, capsys, monkeypatch
):
    """The rule: records are recomputed in file order until the CPU seconds are spent."""
    clock = iter(range(10**6))  # one CPU second per look at the clock
    monkeypatch.setattr(check, "time", SimpleNamespace(process_time=lambda: float(next(clock))))
    store = tmp_path / "s.sqlite"
    source = exports["clean"]
    code, _, err = run_cli(capsys, "store", "import", str(store), str(source), "--cpu-seconds", "5")
    assert code == 0 and f"recomputed 4, added {HEAPS}; {HEAPS - 4} unverified" in err, err
    with ValueStore(store) as vs:
        left = {key for _, _, key in vs.unverified()}
    in_file_order = [json.loads(line)["key"] for line in source.read_text().splitlines()]
    assert left == set(in_file_order[4:])


def test_verify_all_recomputes_unverified_rows_and_promotes_only_right_ones(
    exports, tmp_path, capsys
):
    store = tmp_path / "s.sqlite"
    source = str(exports["poisoned"])
    code, _, err = run_cli(capsys, "store", "import", str(store), source, "--cpu-seconds", "0")
    assert code == 0 and f"recomputed 0, added {HEAPS}; {HEAPS} unverified" in err, err
    code, out, _ = run_cli(capsys, "store", "info", str(store))
    assert f"unverified: {HEAPS}" in out and f"{HEAPS} unverified imported entries" in out
    code, out, err = run_cli(capsys, "store", "verify", str(store), "--sample", "0")
    assert code == 0 and f"{HEAPS} unverified imported records" in err, err
    code, out, _ = run_cli(capsys, "solve", "kayles", "50", "--store", str(store), "--json")
    assert "from_store" not in json.loads(out)  # computed: it replaces the unverified row
    code, out, err = run_cli(capsys, "store", "verify", str(store), "--all")
    assert code == 1 and out.startswith("kayles 100 [imported from poisoned.jsonl"), out
    assert f"{HEAPS - 2} unverified imported records recomputed and marked verified" in err
    assert "1 unverified imported records: not answered from" in err
    code, out, _ = run_cli(capsys, "store", "info", str(store), "--json")
    provenance = {"verified import": HEAPS - 2, "computed here": 1, "unverified import": 1}
    assert json.loads(out)["provenance"] == provenance
    code, out, _ = run_cli(capsys, "solve", "kayles", "99", "--store", str(store), "--json")
    assert json.loads(out)["from_store"] is True
    solved = _heap_value(capsys, store)
    assert solved["value"] == TRUE_VALUE and "from_store" not in solved
    code, out, _ = run_cli(capsys, "store", "info", str(store), "--json")
    assert json.loads(out)["provenance"] == {"verified import": HEAPS - 2, "computed here": 2}


def test_cluster_rows_answer_by_default_but_not_under_trust_local(tmp_path, capsys):
    path = tmp_path / "s.sqlite"
    kayles = get_registry().ruleset("kayles")
    key = position_key(kayles, parse_position(kayles, "30"), Player.LEFT)
    with ValueStore(path) as store:
        store.put(kayles, key, solve("kayles", "30"), origin="cluster", source="tls://h:8786")
    args = ("solve", "kayles", "30", "--store", str(path), "--json")
    for trust, stored in (("verified", True), ("imported", True), ("local", False)):
        code, out, _ = run_cli(capsys, *args, "--trust", trust)
        assert code == 0 and json.loads(out).get("from_store", False) is stored, trust
    code, out, _ = run_cli(capsys, "store", "info", str(path))
    assert "computed by cluster tls://h:8786: 1" in out


def _schema_2(path: Path) -> None:
    """Turn a store into one written before the verification column (schema 2)."""
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE solutions DROP COLUMN verified")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()


def test_imports_of_a_schema_2_store_are_unverified_after_migration(tmp_path, capsys):
    path = tmp_path / "old.sqlite"
    with ValueStore(path) as store:
        solve("kayles", "30", store=store)
        solve("kayles", "31", store=store)
    _schema_2(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE solutions SET origin='import', source='x.jsonl' WHERE position='30'")
    db.commit()
    db.close()
    code, out, _ = run_cli(capsys, "store", "info", str(path))  # read-only: not migrated
    assert "(schema 2)" in out and "x.jsonl, unverified: 1" in out, out
    kayles = get_registry().ruleset("kayles")
    with ValueStore(path, read_only=True) as store:  # read as schema 2: imports unverified
        assert "verified" not in store.columns
        assert store.get(kayles, _key(kayles, "30")) is None
        assert store.get(kayles, _key(kayles, "31")) is not None
    with ValueStore(path, read_only=True, trust="imported") as store:
        assert store.get(kayles, _key(kayles, "30")) is not None
    code, out, _ = run_cli(capsys, "solve", "kayles", "30", "--store", str(path), "--json")
    assert code == 0 and "from_store" not in json.loads(out)  # migrated, still unverified
    code, out, _ = run_cli(capsys, "store", "info", str(path), "--json")
    info = json.loads(out)
    assert info["schema"] == 3 and info["provenance"] == {"computed here": 2}  # replaced
    # a schema-1 store migrates through both steps
    old = tmp_path / "older.sqlite"
    db = sqlite3.connect(old)
    db.executescript(
        "CREATE TABLE solutions (ruleset TEXT NOT NULL, version TEXT NOT NULL, key TEXT NOT "
        "NULL, position TEXT NOT NULL, solution TEXT NOT NULL, PRIMARY KEY (ruleset, version, "
        "key)); CREATE TABLE memo (ruleset TEXT NOT NULL, version TEXT NOT NULL, key TEXT NOT "
        "NULL, value TEXT NOT NULL, PRIMARY KEY (ruleset, version, key));"
    )
    db.close()
    with ValueStore(old) as store:
        solve("kayles", "12", store=store)
        assert {"origin", "verified"} <= store.columns
        assert store.get(kayles, _key(kayles, "12")) is not None


def _key(ruleset, text: str) -> str:
    return position_key(ruleset, parse_position(ruleset, text), Player.LEFT)


# --- signed exports ------------------------------------------------------------------------


@pytest.fixture
def signed(exports, tmp_path, capsys) -> dict[str, Path]:
    """A key pair, a second public key, and the poisoned export signed by the first key (a
    signer vouches for what it signs: the import takes it without recomputing)."""
    code, out, err = run_cli(capsys, "store", "keygen", str(tmp_path / "key"))
    assert code == 0 and out.startswith("ed25519:") and "wrote" in err, err
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600
    run_cli(capsys, "store", "keygen", str(tmp_path / "other"))
    source = tmp_path / "source.sqlite"
    code, _, err = run_cli(capsys, "store", "import", str(source), str(exports["clean"]))
    assert code == 0, err
    export = tmp_path / "published.jsonl"
    code, _, err = run_cli(
        capsys, "store", "export", str(source), "-o", str(export), "--sign", str(tmp_path / "key")
    )
    assert code == 0 and "signed" in err and Path(f"{export}.sig").is_file(), err
    return {
        "export": export,
        "public": tmp_path / "key.pub",
        "other": tmp_path / "other.pub",
        "fingerprint": out.strip(),
    }


def test_a_good_signature_imports_verified_without_recomputing(
    signed, tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(check.Recomputer, "disagreement", _never)
    store = tmp_path / "s.sqlite"
    args = ("store", "import", str(store), str(signed["export"]))
    code, _, err = run_cli(capsys, *args, "--trusted-key", str(signed["public"]))
    assert code == 0 and f"signed by {signed['fingerprint']}, recomputed 0" in err, err
    code, out, _ = run_cli(capsys, "store", "info", str(store))
    assert f"signed by {signed['fingerprint']}: {HEAPS}" in out
    assert _heap_value(capsys, store)["from_store"] is True
    keys = tmp_path / "keys"  # a directory of trusted keys
    keys.mkdir()
    (keys / "a.pub").write_bytes(signed["other"].read_bytes())
    (keys / "b.pub").write_bytes(signed["public"].read_bytes())
    again = tmp_path / "again.sqlite"
    sig = f"{signed['export']}.sig"
    code, _, err = run_cli(
        capsys,
        "store",
        "import",
        str(again),
        str(signed["export"]),
        "--trusted-key",
        str(keys),
        "--signature",
        sig,
    )
    assert code == 0 and f"added {HEAPS}" in err, err


def _never(self, record, timeout=None):
    raise AssertionError("a signed import recomputed a record")


def _tamper(signed: dict, tmp_path: Path) -> tuple[Path, str]:
    changed = tmp_path / "changed.jsonl"
    text = signed["export"].read_text().replace('"value": "*2"', '"value": "*3"', 1)
    changed.write_text(text)
    Path(f"{changed}.sig").write_bytes(Path(f"{signed['export']}.sig").read_bytes())
    return changed, "the file was changed since it was signed"


def _bad_signature(signed: dict, tmp_path: Path) -> tuple[Path, str]:
    sig = json.loads(Path(f"{signed['export']}.sig").read_text())
    raw = bytearray(base64.b64decode(sig["signature"]))
    raw[0] ^= 1
    sig["signature"] = base64.b64encode(bytes(raw)).decode()
    target = tmp_path / "badsig.jsonl"
    target.write_bytes(signed["export"].read_bytes())
    Path(f"{target}.sig").write_text(json.dumps(sig))
    return target, "a bad signature"


def _not_a_signature(signed: dict, tmp_path: Path) -> tuple[Path, str]:
    target = tmp_path / "nosig.jsonl"
    target.write_bytes(signed["export"].read_bytes())
    Path(f"{target}.sig").write_text("{not json")
    return target, "not a signature file"


@pytest.mark.parametrize("case", ["tampered", "bad signature", "wrong key", "garbage", "missing"])
def test_bad_signatures_refuse_the_import_with_nothing_written(case, signed, tmp_path, capsys):
    key = signed["public"]
    source, reason = signed["export"], ""
    if case == "tampered":
        source, reason = _tamper(signed, tmp_path)
    elif case == "bad signature":
        source, reason = _bad_signature(signed, tmp_path)
    elif case == "wrong key":
        key, reason = signed["other"], "not a trusted key"
    elif case == "garbage":
        source, reason = _not_a_signature(signed, tmp_path)
    else:
        source = tmp_path / "unsigned.jsonl"
        source.write_bytes(signed["export"].read_bytes())
        reason = "cannot read signature"
    store = tmp_path / "s.sqlite"
    code, _, err = run_cli(
        capsys, "store", "import", str(store), str(source), "--trusted-key", str(key)
    )
    assert code == 2 and reason in err and err.count("\n") == 1, err
    assert not store.exists()
    existing = tmp_path / "existing.sqlite"
    run_cli(capsys, "solve", "nim", "3", "--store", str(existing))
    before = existing.read_bytes()
    code, _, err = run_cli(
        capsys, "store", "import", str(existing), str(source), "--trusted-key", str(key)
    )
    assert code == 2 and existing.read_bytes() == before


def test_signing_options_refused_in_one_line(signed, tmp_path, capsys):
    export = str(signed["export"])
    target = str(tmp_path / "s.sqlite")
    notkey = tmp_path / "notkey.pub"
    notkey.write_text("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
    notkey = str(notkey)
    for args, reason in [
        (("store", "keygen", str(tmp_path / "key")), "exists: not overwriting"),
        (("store", "export", export, "--sign", str(tmp_path / "key")), "needs --out"),
        (("store", "import", target, export, "--signature", f"{export}.sig"), "needs --trust"),
        (
            ("store", "export", export, "-o", str(tmp_path / "x"), "--sign", str(signed["public"])),
            "not a private key",
        ),
        (("store", "import", target, export, "--trusted-key", notkey), "not a public key"),
        (("store", "import", target, export, "--trusted-key", str(tmp_path)), "no *.pub"),
    ]:
        if reason == "no *.pub":
            empty = tmp_path / "empty"
            empty.mkdir()
            args = (*args[:-1], str(empty))
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and reason in err and err.count("\n") == 1, (args, err)
    assert not (tmp_path / "x").exists()


def test_without_the_sign_extra_signing_options_exit_2(signed, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "cryptography", None)
    export = str(signed["export"])
    for args in (
        ("store", "keygen", str(tmp_path / "k2")),
        ("store", "export", export, "-o", str(tmp_path / "x"), "--sign", str(tmp_path / "key")),
        ("store", "import", str(tmp_path / "s"), export, "--trusted-key", str(signed["public"])),
    ):
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and "needs pip install 'cgframework[sign]'" in err, (args, err)
        assert err.count("\n") == 1
    assert not (tmp_path / "x").exists() and not (tmp_path / "s").exists()


def test_bad_budget_options_exit_2(exports, tmp_path, capsys):
    store = str(tmp_path / "s.sqlite")
    for option in (("--cpu-seconds", "nan"), ("--cpu-seconds", "inf"), ("--cpu-seconds", "-1")):
        code, _, err = run_cli(capsys, "store", "import", store, str(exports["clean"]), *option)
        assert code == 2 and err.count("\n") == 1, (option, err)
    assert not Path(store).exists()


PROVENANCES = {
    # provenance: (origin, installation here?, verified) and the trust levels that read it
    "computed here": (("computed", True, None), {"local", "verified", "imported"}),
    "computed elsewhere": (("computed", False, None), {"verified", "imported"}),
    "cluster": (("cluster", True, None), {"verified", "imported"}),
    "unknown": (("unknown", None, None), {"verified", "imported"}),
    "verified import": (("import", None, "recomputed"), {"verified", "imported"}),
    "signed import": (("import", None, "signed ed25519:ab"), {"verified", "imported"}),
    "unverified import": (("import", None, None), {"imported"}),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(sorted(PROVENANCES)), min_size=1, max_size=6))
def test_each_trust_level_reads_exactly_its_provenances(kinds):
    kayles = get_registry().ruleset("kayles")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.sqlite"
        with ValueStore(path) as store:
            here = store.installation
            for n, _ in enumerate(kinds, 1):
                solve("kayles", str(n), store=store)
        db = sqlite3.connect(path)
        for n, kind in enumerate(kinds, 1):
            origin, local, verified = PROVENANCES[kind][0]
            installation = here if local else "elsewhere"
            db.execute(
                "UPDATE solutions SET origin=?, installation=?, verified=? WHERE position=?",
                (origin, installation, verified, str(n)),
            )
        db.commit()
        db.close()
        for trust in ("local", "verified", "imported", "any"):
            with ValueStore(path, trust=trust, read_only=True) as store:
                for n, kind in enumerate(kinds, 1):
                    readable = store.get(kayles, _key(kayles, str(n))) is not None
                    level = "imported" if trust == "any" else trust
                    assert readable == (level in PROVENANCES[kind][1]), (trust, kind)
        with ValueStore(path, read_only=True) as store:
            assert store.info()["unverified"] == kinds.count("unverified import")
