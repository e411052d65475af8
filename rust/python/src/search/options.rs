//! The engine's option table ([`pychess_engine::options`]) seen from Python: keyword
//! arguments read into `EngineOptions` (the engine checks names and ranges; this file only
//! reads Python values), the options as a dict, and the table for `pychess_rs.engine` and
//! the UCI loop.

use crate::errors::Result;
use pychess_engine::{
    find_option, find_uci_option, find_uci_option_by_key, EngineOption, EngineOptions, OptionError,
    UciOption, ENGINE_OPTIONS, UCI_OPTIONS,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

/// A Python option value: `None`, or an int (not a bool, as in python-chess); the engine
/// checks the range. An int too large to read is out of range, named `shown`.
fn option_value(
    option: &EngineOption,
    shown: &'static str,
    value: &Bound<'_, PyAny>,
) -> Result<Option<i128>> {
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(option.not_an_integer(value.repr()?).into());
    }
    match value.extract::<i128>() {
        Ok(number) => Ok(Some(number)),
        Err(_) => Err(option.out_of_range(shown, value.repr()?).into()),
    }
}

/// `options` with the keyword arguments `changes` applied, each checked by the engine; on
/// an error nothing is applied.
pub(super) fn with_changes(
    options: &EngineOptions,
    changes: Option<&Bound<'_, PyDict>>,
) -> Result<EngineOptions> {
    let mut changed = options.clone();
    for (name, value) in changes.into_iter().flat_map(|c| c.iter()) {
        let option = find_option(&name.extract::<String>()?)?;
        changed.set(option, option_value(option, option.name, &value)?)?;
    }
    Ok(changed)
}

/// The options as Python sees them: the constructor's keyword arguments.
pub(super) fn options_dict<'py>(
    py: Python<'py>,
    options: &EngineOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for option in &ENGINE_OPTIONS {
        dict.set_item(option.name, options.get(option))?;
    }
    Ok(dict)
}

/// ``{option: (min, max)}``: the accepted ranges of the :class:`Searcher` options.
#[pyfunction]
pub fn engine_option_ranges(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    for option in &ENGINE_OPTIONS {
        dict.set_item(option.name, (option.min, option.max))?;
    }
    Ok(dict)
}

/// One UCI option: ``(name, kind, key, default, min, max)``; ``kind`` is ``"spin"``,
/// ``"check"``, ``"string"`` or ``"button"``, ``key`` the :class:`Searcher` option a spin
/// sets (or the front end's own key), and ``min``/``max`` are None but for spins.
type UciOptionRow = (
    &'static str,
    &'static str,
    &'static str,
    Option<Py<PyAny>>,
    Option<u64>,
    Option<u64>,
);

/// The options the UCI loop offers, in the order ``uci`` lists them (see ``UciOptionRow``).
#[pyfunction]
pub fn uci_options(py: Python<'_>) -> PyResult<Vec<UciOptionRow>> {
    UCI_OPTIONS
        .iter()
        .map(|option| {
            let (name, key) = (option.name(), option.key());
            Ok(match *option {
                UciOption::Spin(o) => {
                    let default = o.uci_default().into_pyobject(py)?.into_any().unbind();
                    (name, "spin", key, Some(default), Some(o.min), Some(o.max))
                }
                UciOption::Check { default, .. } => {
                    let default = PyBool::new(py, default).to_owned().into_any().unbind();
                    (name, "check", key, Some(default), None, None)
                }
                UciOption::OwnSpin {
                    default, min, max, ..
                } => {
                    let default = default.into_pyobject(py)?.into_any().unbind();
                    (name, "spin", key, Some(default), Some(min), Some(max))
                }
                UciOption::Text { default, .. } => {
                    let default = default.into_pyobject(py)?.into_any().unbind();
                    (name, "string", key, Some(default), None, None)
                }
                UciOption::Button { .. } => (name, "button", key, None, None, None),
            })
        })
        .collect()
}

/// ``value`` for the UCI spin option ``name`` (its UCI name in any ASCII case, or its key:
/// ``book_seed``), if it is in range.
///
/// :raises: :exc:`EngineOptionError` naming the option as the caller did otherwise, or if no
///     spin option has that name.
#[pyfunction]
pub fn check_uci_option(name: &str, value: &Bound<'_, PyAny>) -> Result<u64> {
    let (option, shown) = match (find_uci_option(name), find_uci_option_by_key(name)) {
        (Some(o), _) => (o, o.name()),
        (None, Some(o)) => (o, o.key()),
        (None, None) => {
            return Err(OptionError::Unknown {
                name: name.to_string(),
            }
            .into())
        }
    };
    let number = match option {
        UciOption::Spin(spin) => {
            option_value(spin, shown, value)?.ok_or_else(|| spin.not_an_integer("None"))?
        }
        _ if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() => {
            return Err(OptionError::NotAnInteger {
                name: shown,
                value: value.repr()?.to_string(),
            }
            .into());
        }
        // An int too large for i128 is out of every range.
        _ => value.extract::<i128>().unwrap_or(i128::MAX),
    };
    Ok(option.check_spin(shown, number)?)
}
