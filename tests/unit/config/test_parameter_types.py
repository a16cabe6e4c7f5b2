"""Unit tests for engine.config.parameter_types and the parameter catalogue processes/parameters.json."""
from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from engine.config.parameter_types import TYPES, coerce, load_catalog, to_json

CATALOG = Path(__file__).resolve().parents[3] / "processes" / "parameters.json"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOG)


# --- the catalogue -----------------------------------------------------------------------------

def test_every_catalogue_default_coerces(catalog):
    for entry in catalog:
        typed = coerce(entry["type"], entry["default"], choices=entry.get("choices"),
                       item_choices=entry.get("item_choices"))
        assert to_json(entry["type"], typed) == entry["default"], entry["name"]


def test_catalogue_is_sorted_unique_and_labelled(catalog):
    names = [entry["name"] for entry in catalog]
    assert names == sorted(names)
    assert len(names) == len(set(names))
    for entry in catalog:
        assert entry["type"] in TYPES
        assert entry["amb"] is None or entry["amb"].startswith("AMB-")
        for key in ("label_es", "label_en", "explanation_es", "explanation_en"):
            assert entry[key].strip(), (entry["name"], key)


def test_catalogue_key_values(catalog):
    by_name = {entry["name"]: entry for entry in catalog}
    assert by_name["farmer.minIncomeSharePct"]["default"] == 50
    assert by_name["farmer.eligibleProducerTypes"]["default"] == [
        "agricultor", "acuicultor", "avicultor", "artesano", "pescador"]
    threshold = by_name["surplus.retentionValueThreshold"]
    assert (threshold["type"], threshold["default"]) == ("string", "300.00")
    assert by_name["surplus.govOrder"]["choices"] == ["AGENCIES_THEN_MUNICIPALITIES", "ARRIVAL_ORDER"]
    assert by_name["calendar.holidays"]["default"] == []
    assert by_name["calendar.rollForwardNonBusinessDay"]["default"] is True
    assert by_name["materials.maxAidAmount"]["default"] is None
    assert by_name["lottery.seed"]["default"] is None
    assert by_name["bid.banMinMonths"]["default"] == 12
    assert by_name["bid.banMaxMonths"]["default"] == 36


def test_load_catalog_rejects_a_default_of_the_wrong_type(tmp_path):
    path = tmp_path / "parameters.json"
    entry = {"name": "x.days", "type": "number", "default": True, "amb": None, "rules": [],
             "label_es": "x", "label_en": "x", "explanation_es": "x", "explanation_en": "x"}
    path.write_text(json.dumps([entry]), encoding="utf-8")
    with pytest.raises(ValueError, match="x.days"):
        load_catalog(path)


# --- coerce ------------------------------------------------------------------------------------

def test_numbers_become_decimals():
    assert coerce("number", 50) == Decimal("50")
    assert isinstance(coerce("number", 0.1), Decimal)
    assert coerce("number", 0.1) == Decimal("0.1")
    assert coerce("number", Decimal("12.50")) == Decimal("12.50")


def test_a_bool_is_refused_for_a_number():
    with pytest.raises(ValueError, match="número"):
        coerce("number", True)


@pytest.mark.parametrize("bad", ["fifty", "1e3", float("nan"), [], {}])
def test_non_numbers_are_refused(bad):
    with pytest.raises(ValueError, match="número"):
        coerce("number", bad)


def test_bool_accepts_only_true_and_false():
    assert coerce("bool", False) is False
    with pytest.raises(ValueError, match="sí o no"):
        coerce("bool", 1)
    with pytest.raises(ValueError, match="sí o no"):
        coerce("bool", "true")


def test_a_choice_outside_choices_is_refused():
    choices = ["TREAT_AS_PUBLIC", "MARKET_VALUE_SALE"]
    assert coerce("string", "MARKET_VALUE_SALE", choices=choices) == "MARKET_VALUE_SALE"
    with pytest.raises(ValueError, match="TREAT_AS_PUBLIC, MARKET_VALUE_SALE"):
        coerce("string", "SELL_ANYWAY", choices=choices)


def test_list_items_outside_item_choices_are_refused():
    types = ["agricultor", "pescador"]
    assert coerce("list", ["pescador"], item_choices=types) == ["pescador"]
    with pytest.raises(ValueError, match="agricultor, pescador"):
        coerce("list", ["AGRICULTOR"], item_choices=types)


def test_dates_parse_from_yyyy_mm_dd():
    assert coerce("date", "2024-07-04") == date(2024, 7, 4)


@pytest.mark.parametrize("bad", ["2024-02-30", "04/07/2024", "20240704", "2024-07-04T00:00:00", 20240704])
def test_a_bad_date_is_refused(bad):
    with pytest.raises(ValueError, match="fecha"):
        coerce("date", bad)


def test_wrong_containers_are_refused():
    with pytest.raises(ValueError, match="lista"):
        coerce("list", "agricultor")
    with pytest.raises(ValueError, match="objeto"):
        coerce("object", [])
    with pytest.raises(ValueError, match="texto"):
        coerce("string", 300)


def test_none_is_allowed_for_every_type():
    for type_name in TYPES:
        assert coerce(type_name, None, choices=["A"]) is None


def test_unknown_type_is_refused():
    with pytest.raises(ValueError, match="unknown"):
        coerce("money", "300.00")


# --- to_json -----------------------------------------------------------------------------------

def test_to_json_writes_integral_numbers_as_integers_and_others_as_exact_text():
    assert to_json("number", Decimal("50")) == 50
    assert to_json("number", Decimal("36.0")) == 36
    assert to_json("number", Decimal("12.5")) == "12.5"
    assert coerce("number", to_json("number", Decimal("12.5"))) == Decimal("12.5")


def test_to_json_dates_and_passthrough():
    assert to_json("date", date(2024, 7, 4)) == "2024-07-04"
    assert to_json("list", ["a"]) == ["a"]
    assert to_json("object", None) is None


# Issue 16: `farmer.reviewDeadlineDays = -3` was saved. Each entry's range/shape refuses in Spanish.
def test_every_catalogue_default_fits_its_range_and_day_counts_are_whole_and_positive():
    from engine.config import parameters
    from engine.config.parameter_types import check_shape
    catalogue = parameters.catalog()
    for entry in catalogue.values():
        check_shape(entry, coerce(entry["type"], entry["default"]))
    days = [e for n, e in catalogue.items() if n.endswith("Days")]
    assert days and all(e.get("integer") and e.get("minimum", 0) >= 1 for e in days)


@pytest.mark.parametrize("name, value, message", [
    ("farmer.reviewDeadlineDays", -3, "Debe ser al menos 1; escribió -3."),
    ("farmer.reviewDeadlineDays", "20.5", "Debe ser un número entero; 20.5 tiene decimales."),
    ("farmer.minIncomeSharePct", 150, "Debe ser como máximo 100; escribió 150."),
    ("bid.fiscalYearStart", "13-01", "Debe tener la forma MM-DD (mes y día, p. ej. 07-01); escribió «13-01»."),
])
def test_a_value_outside_its_range_is_refused_in_spanish(name, value, message):
    from engine.config import parameters
    from engine.config.parameter_types import check_shape
    entry = parameters.catalog()[name]
    with pytest.raises(ValueError) as refused:
        check_shape(entry, coerce(entry["type"], value))
    assert str(refused.value) == message
    check_shape(entry, coerce(entry["type"], entry["default"]))
    check_shape(entry, None)
