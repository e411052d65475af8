//! `Board._repr_svg_`: the board as a picture in Jupyter, drawn by `pychess_rs.svg`.

use super::Board;
use crate::py_modules;
use pyo3::prelude::*;
use pyo3::types::PyDict;

#[pymethods]
impl Board {
    /// The board as an SVG picture (what Jupyter shows), with the last move and a king in
    /// check marked, as python-chess draws it.
    #[pyo3(name = "_repr_svg_")]
    fn repr_svg(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let kwargs = PyDict::new(py);
        kwargs.set_item("size", 390)?;
        if slf.borrow().game.uci_moves().next_back().is_some() {
            kwargs.set_item("lastmove", slf.call_method0("peek")?)?;
        }
        // Asked through the Python methods, so a subclass's idea of check is the one drawn.
        if slf.call_method0("is_check")?.is_truthy()? {
            let king = slf.call_method1("king", (slf.getattr("turn")?,))?;
            kwargs.set_item("check", king)?;
        }
        let svg = py_modules::svg(py)?;
        Ok(svg.call_method("board", (slf,), Some(&kwargs))?.unbind())
    }
}
