"""Hardening, part two (part one: ``test_hardening.py``): input files and streams, progress
on stderr, limits on generators and sweeps, strict boards, the Dask executor."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgframework import get_registry, parse_position, solve
from cgframework.plugins import PluginError
from cgframework.runtime.inputs import InputTextError, read_text_argument
from cgframework.store.database import ValueStore
from cgframework.sweep.executors import SweepError, TlsFiles, solve_member
from cgframework.sweep.runner import sweep
from cgframework.testing import run_cli

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def refused(code: int, err: str, *words: str) -> bool:
    """Exit 2 with exactly one line on stderr mentioning every word."""
    return code == 2 and err.count("\n") == 1 and all(w in err for w in words)


# ---- one reader for @FILE, - and literal text ----------------------------------------------

BINARY_COMMANDS = [
    ("solve", "nim"),
    ("calc",),
    ("play", "nim"),
    ("wak", "grundy"),
    ("influence", "explain"),
    ("pizza", "share"),
    ("cr", "outcome"),
    ("cr", "neg"),
    ("guaranteed", "canon"),
]


@pytest.mark.parametrize("command", BINARY_COMMANDS, ids=" ".join)
def test_binary_file_is_refused_naming_the_file(tmp_path, capsys, command):
    binary = tmp_path / "binary.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage\x80")
    code, out, err = run_cli(capsys, *command, f"@{binary}")
    assert refused(code, err, "binary.bin", "not UTF-8"), err
    assert out == ""


def test_cr_compare_reads_files_too(tmp_path, capsys):
    binary = tmp_path / "g.bin"
    binary.write_bytes(b"\xc3\x28")
    code, _, err = run_cli(capsys, "cr", "compare", f"@{binary}", "0")
    assert refused(code, err, "g.bin")


def test_cr_commands_read_at_file_like_a_literal(tmp_path, capsys):
    game = tmp_path / "g.txt"
    game.write_text("{2|0|-4}\n")
    for command in ("outcome", "neg"):
        from_file = run_cli(capsys, "cr", command, f"@{game}")
        literal = run_cli(capsys, "cr", command, "{2|0|-4}")
        assert from_file == literal and from_file[0] == 0


def test_input_limit_is_checked_before_reading_everything(tmp_path, capsys, monkeypatch):
    big = tmp_path / "big.txt"
    big.write_text("1," * 20 + "1")
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "16")
    code, _, err = run_cli(capsys, "solve", "nim", f"@{big}")
    assert refused(code, err, "big.txt", "limit of 16 bytes")
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "-3")
    code, _, err = run_cli(capsys, "solve", "nim", f"@{big}")
    assert refused(code, err, "CGF_MAX_INPUT_BYTES")
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "9" * 30)  # (past what a read can take)
    code, _, err = run_cli(capsys, "solve", "nim", f"@{big}")
    assert refused(code, err, "CGF_MAX_INPUT_BYTES", "more than this program reads")
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", str(10**12))  # (a limit, not an allocation)
    code, out, err = run_cli(capsys, "solve", "nim", f"@{big}")
    assert code == 0 and "value" in out, err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_endless_device_is_refused_at_the_limit(capsys):
    code, _, err = run_cli(capsys, "solve", "nim", "@/dev/zero")
    assert refused(code, err, "/dev/zero", "input limit")


def test_stdin_is_limited_and_decoded_strictly(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"3,\xff")))
    code, _, err = run_cli(capsys, "solve", "nim", "-")
    assert refused(code, err, "standard input", "UTF-8")
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "4")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1,2,3,4")))
    with pytest.raises(InputTextError, match="limit of 4 bytes"):
        read_text_argument("-")


def test_long_bad_positions_are_not_echoed_whole(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("x" * 100_000)
    code, _, err = run_cli(capsys, "solve", "nim", f"@{bad}")
    assert refused(code, err, "100000 characters") and len(err) < 1000


# ---- progress, warnings and errors on stderr; data on stdout --------------------------------

PROGRESS_RUNS = [
    ("csv", ["influence", "table", "--to", "5", "--progress"]),
    ("jsonl", ["sweep", "kayles", "heaps", "--to", "6", "--progress"]),
    ("csv", ["sweep", "nim", "heaps", "--to", "4", "--format", "csv", "--progress"]),
    ("text", ["wak", "sequence", "--family", "path", "--arc-kayles", "--to", "8", "--progress"]),
    ("text", ["guaranteed", "census", "--day", "1", "--atoms=0", "--progress"]),
]


@pytest.mark.parametrize(
    "kind, args", PROGRESS_RUNS, ids=lambda x: " ".join(x[:3]) if isinstance(x, list) else x
)
def test_progress_never_reaches_stdout(capsys, kind, args):
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert "0:00:0" not in out and "\x1b" not in out  # no frame of a bar (time left)
    if kind == "csv":
        rows = list(csv.reader(io.StringIO(out)))
        assert len({len(r) for r in rows}) == 1 and len(rows) > 2
    elif kind == "jsonl":
        assert all("parameter" in json.loads(line) for line in out.splitlines())


def test_influence_progress_goes_to_stderr_in_a_pipeline(tmp_path):
    """The original report: ``cgf influence table --to 5 --progress > t.csv``."""
    target = tmp_path / "t.csv"
    with open(target, "w") as handle:
        done = subprocess.run(
            [sys.executable, "-m", "cgframework", "influence", "table", "--to", "5", "--progress"],
            stdout=handle,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(target.open()))
    assert rows[0][0] == "n" and [r[0] for r in rows[1:]] == ["1", "2", "3", "4", "5"]


def test_influence_table_recomputes_store_entries_without_scores(tmp_path, capsys):
    store = str(tmp_path / "s.sqlite")
    code, _, err = run_cli(
        capsys, "solve", "influence", "segment:5", "--method", "generic", "--store", store
    )
    assert code == 0, err
    code, out, err = run_cli(capsys, "influence", "table", "--to", "6", "--store", store)
    assert code == 0, err
    assert out.splitlines()[5] == "5,3,0,5,2,1,-5"  # Table 1, n = 5 (L836)


# ---- generators: checked before building; huge paths and cycles answered ---------------------

HUGE_GENERATORS = [
    ("subtraction", "{99999999999999999999}:5", "is more than 1000000000000000000"),
    ("wak", "0-" + "9" * 100, "limit is 100000"),
    ("arc-kayles", "path:1000000000", "100000"),
    ("arc-kayles", "complete:100000", "1000000"),
    ("arc-kayles", "grid:100000x100000", "100000"),
    ("wak", "0-1;n=99999999999", "100000"),
    ("arc-kayles", '{"n": 1000000000, "edges": []}', "100000"),
    ("influence", "cycle:1000000000", "10000"),
    ("influence", "tree:100000,1", "10000"),
    ("influence", "segment:99999999999", "10000"),
]


@pytest.mark.parametrize("ruleset, text, limit", HUGE_GENERATORS)
def test_huge_generators_are_refused_naming_the_limit(capsys, ruleset, text, limit):
    code, _, err = run_cli(capsys, "solve", ruleset, text)
    assert refused(code, err, limit if " " in limit else "limit is " + limit), err


@pytest.mark.parametrize(
    "args",
    [
        ("wak", "grundy", "0-" + "9" * 100),
        ("wak", "grundy", "--arc-kayles", "0-" + "9" * 100),
        ("wak", "to-arc-kayles", "--check", "0-" + "9" * 100),
        ("sweep", "subtraction", "heaps:1," + "9" * 100, "--to", "2"),
    ],
)
def test_huge_numbers_in_other_commands_are_refused_in_one_line(capsys, args):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err, err
    assert out == ""  # (nothing printed half-way)


def test_cheating_robot_text_nested_past_what_its_code_handles_is_refused(capsys, tmp_path):
    deep = tmp_path / "deep.txt"
    deep.write_text("{" * 500 + "0" + "|0|0}" * 500)  # (500 levels were past the printer)
    for command in (("solve",), ("tree", "-o", str(tmp_path / "tree.svg"))):
        code, _, err = run_cli(capsys, command[0], "cheating-robot", f"@{deep}", *command[1:])
        assert refused(code, err, "nested more than"), err


def test_long_arc_kayles_path_and_cycle_are_answered_by_the_linear_solver():
    from cgframework_wak.formulas import octal_007

    path = solve("arc-kayles", "path:25656")
    assert path.method == "arc-kayles-path"
    assert path.grundy == solve("octal", "0.07:25656").grundy == octal_007(25656)
    cycle = solve("arc-kayles", "cycle:25000")
    assert cycle.method == "arc-kayles-path"
    assert cycle.grundy == (0 if octal_007(24998) else 1)
    assert cycle.best_moves == ()  # every move leaves P_24998, an N-position


def test_period_of_dawsons_kayles_satisfies_the_periodicity_theorem():
    """0.07 has period 34 from heap 53 (Guy & Smith 1956): the octal periodicity theorem
    asks for G(n + 34) = G(n) on 53 <= n < 2*53 + 34 + 2, checked on the octal solver."""
    from cgframework_wak.formulas import octal_007

    grundy = [solve("octal", f"0.07:{n}").grundy for n in range(2 * 53 + 34 + 2 + 34)]
    assert all(grundy[n + 34] == grundy[n] for n in range(53, 2 * 53 + 34 + 2))
    assert [octal_007(n) for n in range(len(grundy))] == grundy


@st.composite
def paths_and_cycles(draw):
    """An Arc-Kayles graph whose live parts are paths (some vertices already deleted)."""
    n = draw(st.integers(1, 11))
    cyclic = n >= 3 and draw(st.booleans())
    edges = [[i, i + 1] for i in range(n - 1)] + ([[0, n - 1]] if cyclic else [])
    weights = draw(st.lists(st.sampled_from([1, 1, 1, 0]), min_size=n, max_size=n))
    return json.dumps({"n": n, "edges": edges, "weights": weights})


@settings(max_examples=60, deadline=None)
@given(paths_and_cycles())
def test_linear_path_solver_agrees_with_the_generic_search(text):
    fast = solve("arc-kayles", text, method="arc-kayles-path")
    slow = solve("arc-kayles", text, method="generic")
    assert fast.grundy == slow.grundy
    assert set(fast.best_moves) == {
        m for m in (solve("arc-kayles", text, method="wak-search").best_moves)
    }


def test_influence_check_needs_at_least_one_vertex(capsys):
    code, _, err = run_cli(capsys, "influence", "check", "--max-n", "0")
    assert refused(code, err, "--max-n")
    code, _, err = run_cli(capsys, "influence", "check", "--random", str(10**100))
    assert refused(code, err, "--random must be in 0..")  # (was a run without end)


# ---- sweeps --------------------------------------------------------------------------------

BAD_SWEEPS = [
    (["nim", "heaps", "--from", "-5", "--to", "-1"], "no valid member -5"),
    (["domineering", "2xn", "--from", "0", "--to", "2"], "no valid member 0"),
    (["nim", "heaps", "--to", str(10**30)], "at most 1000000"),
    (["nim", "heaps", "--method", "bogus"], "unknown method"),
    (["nim", "heaps", "--executor", "dask://"], "bad executor"),
    (["nim", "heaps", "--executor", "tls://nowhere"], "bad executor"),
    (["nim", "heaps", "--executor", "dask://host:99999"], "bad executor"),
    (["nim", "heaps", "--executor", "tcp://127.0.0.1:9", "--tls-cert", "x.pem"], "tls://"),
    (["octal", "heaps"], "needs an octal code"),
    (["nim", "heaps:3"], "takes no argument"),
    (["octal", "heaps:0.x8"], "digit"),
]


@pytest.mark.parametrize(
    "args, reason", BAD_SWEEPS, ids=lambda x: " ".join(x) if isinstance(x, list) else "r"
)
def test_bad_sweeps_are_refused_before_any_output(capsys, args, reason):
    code, out, err = run_cli(capsys, "sweep", *args, "--format", "csv")
    assert refused(code, err, reason), err
    assert out == ""


def test_jobs_are_capped_with_a_warning_and_do_not_hang(capsys):
    code, out, err = run_cli(capsys, "sweep", "nim", "heaps", "--to", "2", "--jobs", "100000")
    assert code == 0
    assert "--jobs 100000 capped at" in err
    assert [json.loads(line)["grundy"] for line in out.splitlines()] == [0, 1, 2]


@pytest.mark.parametrize(
    "ruleset, family, check",
    [
        ("octal", "heaps:0.137", lambda n: solve("octal", f"0.137:{n}").grundy),
        ("subtraction", "heaps:1,2,5", lambda n: solve("subtraction", f"{{1,2,5}}:{n}").grundy),
        ("cheating-robot", "switches", None),
        ("cheating-robot", "copies:{2|0|-4}", None),
        ("guaranteed", "switches", None),
        ("guaranteed", "copies:<^-3|<2|1>>", None),
    ],
)
def test_every_plugin_family_sweeps(capsys, ruleset, family, check):
    code, out, err = run_cli(capsys, "sweep", ruleset, family, "--to", "3")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["parameter"] for r in records] == [0, 1, 2, 3]
    if check is not None:
        assert [r["grundy"] for r in records] == [check(n) for n in range(4)]


def test_forced_method_sweeps_read_what_that_method_stored(tmp_path, capsys):
    store = str(tmp_path / "v.sqlite")
    args = ["sweep", "kayles", "heaps", "--to", "6", "--store", store]
    assert "7 computed" in run_cli(capsys, *args, "--method", "generic")[2]
    assert "0 computed, 7 from the store" in run_cli(capsys, *args, "--method", "generic")[2]
    # auto takes any stored answer; generic does not take auto's (shortcuts stay checked)
    code, _, err = run_cli(capsys, *args[:-2], "--store", store, "--to", "8")
    assert code == 0
    _, out, err = run_cli(capsys, *args[:3], "--to", "8", "--store", store, "--method", "generic")
    assert "2 computed, 7 from the store" in err
    assert {json.loads(line)["method"] for line in out.splitlines()} == {"grundy"}
    with ValueStore(store) as vs:
        assert len(vs) >= 9


# ---- strict input formats ------------------------------------------------------------------

BAD_BOARDS = [
    ('{"weights": [1, 2, 3], "edges": [[0.9, 1.7]]}', "not an integer"),
    ('{"weights": [1, 2], "edges": [[true, 1]]}', "not an integer"),
    ('{"weights": [1, 2], "available": [false]}', "not an integer"),
    ('{"weights": [0.5, 2], "edges": [[0, 1]]}', "JSON float"),
    ('{"weights": [true, 2]}', "not a number"),
    ('{"weights": [1], "extra": 1}', "unknown key"),
    ('{"weights": [1, 2], "edges": [[0, 1, 1]]}', "not a pair"),
    ('{"weights": [1, 2], "edges": [[0, 2]]}', "out of range"),
    ("[1, 2]", "bad weight"),
]


@pytest.mark.parametrize("board, reason", BAD_BOARDS)
def test_pizza_json_boards_are_strict(capsys, board, reason):
    code, _, err = run_cli(capsys, "solve", "pizza", board)
    assert refused(code, err, reason), err


def test_pizza_json_board_with_exact_string_weights():
    board = '{"weights": ["1/2", 2], "edges": [[0, 1]], "available": [0]}'
    assert solve("pizza", board).value == solve("pizza", "st(1/2,2)").value


@pytest.mark.parametrize(
    "args, reason",
    [
        (["--weights", str(10**30)], "search limit"),
        (["--n", "1000000000"], "--n must be in"),
        (["--alphabet", "1,2,3", "--n", "40"], "3^40"),
    ],
)
def test_pizza_search_refuses_huge_searches_before_building(capsys, args, reason):
    code, _, err = run_cli(capsys, "pizza", "search", *args)
    assert refused(code, err, reason), err


def test_octal_codes_with_a_leading_zero_and_no_point_are_ambiguous(capsys):
    code, _, err = run_cli(capsys, "solve", "octal", "077:10")
    assert refused(code, err, "ambiguous", "0.77", "0.077")
    kayles = solve("octal", "0.77:10").grundy
    assert solve("octal", ".77:10").grundy == solve("octal", "77:10").grundy == kayles
    assert solve("octal", "0.077:10").grundy != kayles  # 0.077 is another game


# ---- the Dask executor ---------------------------------------------------------------------


def test_workers_import_only_allowed_plugins(monkeypatch):
    monkeypatch.delenv("CGFRAMEWORK_WORKER_PLUGINS", raising=False)
    with pytest.raises(PluginError, match="allow-list"):
        solve_member("nim", "3", "auto", "L", ["os"], None)
    monkeypatch.setenv("CGFRAMEWORK_WORKER_PLUGINS", "tests.toy_rulesets")
    from cgframework.sweep.executors import _allowed_plugins

    assert "tests.toy_rulesets" in _allowed_plugins()


def test_tls_files_need_a_tls_scheduler():
    family = get_registry().family("nim", "heaps")
    with pytest.raises(SweepError, match="no TLS file"):
        list(sweep("nim", family, 0, 1, executor="tls://127.0.0.1:1", tls=TlsFiles("nope.pem")))


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl for a test cert")
def test_sweep_over_a_tls_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    from distributed.security import Security

    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
         "-out", cert, "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    security = Security(
        tls_ca_file=cert,
        tls_scheduler_cert=cert,
        tls_scheduler_key=key,
        tls_worker_cert=cert,
        tls_worker_key=key,
        tls_client_cert=cert,
        tls_client_key=key,
        require_encryption=True,
    )
    family = get_registry().family("kayles", "heaps")
    local = [r.solution.grundy for r in sweep("kayles", family, 0, 8)]
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tls",
        host="127.0.0.1",
        security=security,
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        remote = sweep("kayles", family, 0, 8, executor=address, tls=TlsFiles(cert, cert, key))
        assert [r.solution.grundy for r in remote] == local


# ---- fuzz: commands with files, generators and options -------------------------------------

# Commands whose payload parsers stay cheap on any short text (heap games, WAK counters and
# cheating-robot integers turn a few digits into large searches: test_fuzz.py covers them).
FILE_COMMANDS = [
    ["solve", "pizza"],
    ["solve", "arc-kayles"],
    ["solve", "influence"],
    ["solve", "domineering"],
    ["calc"],
    ["pizza", "share"],
]

TEXTISH = st.one_of(
    st.binary(max_size=40),
    st.text(alphabet='0123456789.,:;{}[]|<>+-/x" \n\xe9path', max_size=30).map(str.encode),
)


@FUZZ
@given(command=st.sampled_from(FILE_COMMANDS), content=TEXTISH)
def test_fuzz_files_give_an_answer_or_one_line(tmp_path, capsys, command, content):
    source = tmp_path / "input.txt"
    source.write_bytes(content)
    code, _, err = run_cli(capsys, *command, f"@{source}")
    assert code in (0, 2, 3), err
    assert code == 0 or err.count("\n") == 1, err
    assert "internal error" not in err


SIZES = st.one_of(
    st.integers(-3, 40),
    st.sampled_from([100_001, 10**9, 10**30]),
    st.sampled_from(["", "x", "1.5", "-", "١٢", "9" * 5000]),
)


@FUZZ
@given(
    ruleset=st.sampled_from(["arc-kayles", "influence"]),
    family=st.sampled_from(["path", "cycle", "complete", "star", "wheel", "grid", "segment"]),
    size=SIZES,
    other=st.integers(1, 5),
)
def test_fuzz_generators_build_small_members_or_refuse(ruleset, family, size, other):
    text = f"{family}:{size}" + (f"x{other}" if family == "grid" else "")
    rules = get_registry().ruleset(ruleset)
    try:
        parse_position(rules, text)
    except ValueError as exc:
        assert "\n" not in str(exc)


@FUZZ
@given(
    family=st.sampled_from(
        [("nim", "heaps"), ("kayles", "heaps"), ("domineering", "2xn"), ("octal", "heaps:0.07")]
    ),
    start=st.integers(-10, 5),
    span=st.one_of(st.integers(-2, 3), st.just(10**12)),
    jobs=st.sampled_from(["1", "0", "-1"]),
    method=st.sampled_from(["auto", "generic", "bogus", "outcome"]),
)
def test_fuzz_sweep_options_run_or_refuse_in_one_line(capsys, family, start, span, jobs, method):
    args = ["sweep", *family, "--from", str(start), "--to", str(start + span)]
    code, out, err = run_cli(capsys, *args, "--jobs", jobs, "--method", method)
    assert code in (0, 2), err
    if code == 2:
        assert err.count("\n") == 1 and out == ""


def test_a_local_pool_trusts_the_plugins_its_parent_loaded(tmp_path, monkeypatch):
    """Workers of a local process pool import the parent's extra plugin modules (the same
    user's own process); only remote workers need the allow-list."""
    from cgframework import Family, plugins
    from tests.test_plugins import write_plugin

    monkeypatch.delenv("CGFRAMEWORK_WORKER_PLUGINS", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.reset()
    try:
        write_plugin(tmp_path, "tmp_pool_countdown", "pool-countdown")
        plugins.load_plugin("tmp_pool_countdown")
        family = Family("counters", "pool-countdown", str)
        records = sweep("pool-countdown", family, 0, 5, executor="processes", jobs=2)
        assert [r.solution.grundy for r in records] == [n % 3 for n in range(6)]
    finally:
        plugins.reset()


def test_influence_table_range_is_limited(capsys):
    code, _, err = run_cli(capsys, "influence", "table", "--to", str(10**20))
    assert refused(code, err, "at most 10000")


def test_a_reader_that_leaves_early_is_exit_0():
    """``cgf classic sequence kayles --to 100000 | head -c 20``: click turned the broken pipe
    into a silent exit 1; a reader that stops is no error, as for every other write."""
    command = [sys.executable, "-m", "cgframework", "classic", "sequence", "kayles"]
    with subprocess.Popen(
        [*command, "--to", "100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as child:
        assert child.stdout.read(20)
        child.stdout.close()
        err = child.stderr.read().decode()
        assert child.wait(timeout=120) == 0, err
    assert err == ""


# ---- stores, play and explore: what a hostile pass found ------------------------------------


def test_store_export_never_writes_over_its_own_store(capsys, tmp_path):
    store = tmp_path / "values.sqlite"
    assert run_cli(capsys, "solve", "nim", "3,4", "--store", str(store))[0] == 0
    kept = store.read_bytes()
    link = tmp_path / "link"
    link.symlink_to(store)
    for target in (store, link, tmp_path / "values.sqlite-journal"):
        code, _, err = run_cli(capsys, "store", "export", str(store), "-o", str(target))
        assert refused(code, err, "name the same file"), err
    assert store.read_bytes() == kept
    assert not (tmp_path / "values.sqlite-journal").exists()


@pytest.mark.parametrize("damage", ["[]", '"text"', "null", '{"stats": {"nodes": "x"}}'])
def test_a_damaged_stored_solution_is_one_line(capsys, tmp_path, damage):
    import json
    import sqlite3

    store = str(tmp_path / "values.sqlite")
    assert run_cli(capsys, "solve", "clobber", "xoxo", "--store", store)[0] == 0
    with sqlite3.connect(store) as db:
        (row,) = db.execute("select solution from solutions").fetchone()
        if damage.startswith("{"):
            damage = json.dumps({**json.loads(row), **json.loads(damage)})
        db.execute("update solutions set solution = ?", (damage,))
    code, _, err = run_cli(capsys, "solve", "clobber", "xoxo", "--store", store)
    assert refused(code, err, "a stored row is damaged"), err


def test_play_shows_what_was_typed_as_text_and_ends_when_input_does(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("[/x]\n[red]hi\nq\n"))
    code, out, err = run_cli(capsys, "play", "nim", "3")
    assert code == 0 and "illegal move '[/x]'" in out and "'[red]hi'" in out, err
    monkeypatch.setattr("sys.stdin", None)  # (closed: input() has no standard input)
    code, out, err = run_cli(capsys, "play", "nim", "3")
    assert code == 0 and err == "", err


@pytest.mark.parametrize("host", ["", "999.1.1.1"])
def test_explore_refuses_a_host_it_cannot_serve_on_in_one_line(capsys, host):
    code, _, err = run_cli(capsys, "explore", "nim", "3", "--no-browser", "--host", host)
    assert refused(code, err), err
