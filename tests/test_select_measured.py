"""Measured code size: the compiled routines of each type, from a real build."""
from __future__ import annotations

import shutil

import pytest
from test_estimate_static import choice, graph_of, member, prim, seq

from asn1c_hybrid.errors import MeasurementError
from asn1c_hybrid.estimate.static import static_estimate
from asn1c_hybrid.select.calibration import ALL_FEATURES, Calibration
from asn1c_hybrid.select.measured import calibrated_costs, routine_sizes
from asn1c_hybrid.typegraph import Kind, Tag, TagClass, universal

pytestmark = pytest.mark.skipif(shutil.which("cc") is None or shutil.which("nm") is None,
                                reason="needs a C compiler and nm")


def ctx_member(name, type_id, n, optional=False):
    m = member(name, type_id, optional=optional)
    m.tags = (Tag(TagClass.CONTEXT, n),)
    return m


def shapes_graph():
    """A SEQUENCE of 2 and of 8 INTEGERs, and a CHOICE of 3 (automatic-style tags)."""
    def seq_of_ints(type_id, n):
        node = seq(type_id, *(ctx_member(f"f{i}", "M.Int", i) for i in range(n)))
        node.tags = (universal(16),)
        return node

    integer = prim("M.Int")
    integer.tags = (universal(2),)
    alternatives = choice("M.Pick", ctx_member("a", "M.Small", 0), ctx_member("b", "M.Int", 1),
                          ctx_member("c", "M.Big", 2))
    return graph_of(seq_of_ints("M.Small", 2), seq_of_ints("M.Big", 8), alternatives, integer)


def test_every_item_gets_the_bytes_of_its_routines():
    sizes = routine_sizes(shapes_graph())
    assert set(sizes) == {"M.Small", "M.Big", "M.Pick"}
    assert all(size > 0 for size in sizes.values())
    # more members, more code: the measurement sees the routines' real bodies
    assert sizes["M.Big"] > sizes["M.Small"]


def test_calibrated_costs_pair_the_bytes_with_the_models_saving():
    """Saving per value from the coefficients: a SEQUENCE of n inline members saves
    seq + n seq.inline; a CHOICE its alternative's class."""
    coefficients = {name: 0.0 for name in ALL_FEATURES}
    coefficients.update({"seq": 10.0, "seq.inline": 3.0, "choice.struct": 7.0,
                         "choice.inline": 5.0})
    graph = shapes_graph()
    costs = calibrated_costs(graph, static_estimate(graph), Calibration(coefficients))
    assert costs["M.Small"].saving == 10 + 2 * 3 and costs["M.Big"].saving == 10 + 8 * 3
    assert costs["M.Big"].cost == routine_sizes(shapes_graph())["M.Big"]   # deterministic


def test_a_build_without_ber_is_costed_by_pers_coefficients():
    """PER's routines alone: their sizes, and PER's coefficients by PER's member classes
    (an unconstrained INTEGER goes by the tables there: `generic`)."""
    ber = {name: 0.0 for name in ALL_FEATURES} | {"seq": 10.0, "seq.inline": 3.0}
    per = {name: 0.0 for name in ALL_FEATURES} | {"seq": 20.0, "seq.generic": 4.0,
                                                   "choice.generic": 6.0}
    graph = shapes_graph()
    calibration = Calibration(ber, per_coefficients=per)
    costs = calibrated_costs(graph, static_estimate(graph), calibration, ("uper",))
    assert costs["M.Small"].saving == 20 + 2 * 4 and costs["M.Big"].saving == 20 + 8 * 4
    assert costs["M.Pick"].saving == 6
    assert costs["M.Big"].cost == routine_sizes(shapes_graph(), ("uper",))["M.Big"]
    # with BER among the rules, BER's routines and coefficients
    costs = calibrated_costs(graph, static_estimate(graph), calibration, ("ber", "uper"))
    assert costs["M.Small"].saving == 10 + 2 * 3


def test_no_compiler_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("CC", "no-such-compiler-here")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with pytest.raises(MeasurementError, match="needs no-such-compiler-here"):
        routine_sizes(shapes_graph())


def test_a_build_without_ber_weighs_its_per_routines():
    """Without BER, compiled types have PER routines alone (emit/per_routines.py): their
    bytes are the cost, not those of the BER routines that such a build does not have."""
    graph = shapes_graph()
    ber, per = routine_sizes(graph), routine_sizes(graph, ("uper",))
    assert set(per) == {"M.Small", "M.Big", "M.Pick"}
    assert all(size > 0 for size in per.values())
    assert per["M.Big"] > per["M.Small"]
    assert all(per[i] != ber[i] for i in per)
