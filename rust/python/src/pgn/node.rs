//! python-chess's `ChildNode`s made without a Python call, for the tree builder.
//!
//! # Why
//!
//! Reading a game makes a node per move. Through the Python object protocol that is
//! `object.__new__(ChildNode)` (an argument tuple, the `__new__` wrapper's checks and, on
//! CPython 3.11, an array for instance attributes the node never uses) and five `setattr`s
//! (each a type lookup and a descriptor call): most of the cost of a node.
//!
//! # How
//!
//! `ChildNode`'s fields are `__slots__`, and a slot is an object pointer at a fixed offset in
//! the instance. [`NodeClass::of`] measures each offset once from a live instance (it sets a
//! marker object through `setattr` and finds its pointer in the instance's memory) and keeps
//! them for the class; a node is then the class's own `tp_alloc` (what `object.__new__`
//! calls: zeroed memory, tracked by the cyclic collector) and a pointer store per field.
//! Only a class that `object.__new__` makes, without inline attribute values (CPython 3.13's
//! `Py_TPFLAGS_INLINE_VALUES`, never set on a class with slots), is accepted; its instance
//! dictionary stays unmade until something else is set on the node, as CPython allows.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use std::sync::Mutex;

/// CPython 3.13's `Py_TPFLAGS_INLINE_VALUES` (a bit no earlier version uses).
const INLINE_VALUES: u64 = 1 << 2;

/// Byte offsets of a node's fields in its instance.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub parent: usize,
    pub r#move: usize,
    pub variations: usize,
    pub comment: usize,
    pub starting_comment: usize,
    pub nags: usize,
}

/// The class whose layout was measured last (kept alive, so its address stays its own).
static MEASURED: Mutex<Option<(Py<PyType>, Layout)>> = Mutex::new(None);

/// A node class ready for [`NodeClass::make`].
pub(super) struct NodeClass<'py> {
    class: Bound<'py, PyType>,
    alloc: ffi::allocfunc,
    pub layout: Layout,
}

impl<'py> NodeClass<'py> {
    /// `class`, with its fields' offsets (measured the first time it is seen).
    pub(super) fn of(class: Bound<'py, PyType>) -> PyResult<NodeClass<'py>> {
        let py = class.py();
        let mut measured = MEASURED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let layout = match measured.as_ref() {
            Some((known, layout)) if known.bind(py).is(&class) => *layout,
            _ => {
                let layout = measure(&class)?;
                *measured = Some((class.clone().unbind(), layout));
                layout
            }
        };
        // SAFETY: `class` is a live type object; `Py_tp_alloc` is a slot every type has.
        let slot = unsafe { ffi::PyType_GetSlot(class.as_type_ptr(), ffi::Py_tp_alloc) };
        if slot.is_null() {
            return Err(PyTypeError::new_err("the node class has no tp_alloc"));
        }
        // SAFETY: the `Py_tp_alloc` slot holds an `allocfunc` (CPython's type slot table).
        let alloc = unsafe { std::mem::transmute::<*mut std::ffi::c_void, ffi::allocfunc>(slot) };
        Ok(NodeClass {
            class,
            alloc,
            layout,
        })
    }

    /// A new node with its fields set to `values` (parent, move, variations, comment,
    /// starting comment; the NAG set is left unset, the class makes it when asked).
    pub(super) fn make(
        &self,
        parent: &Bound<'py, PyAny>,
        r#move: &Bound<'py, PyAny>,
        variations: &Bound<'py, PyAny>,
        comment: &Bound<'py, PyString>,
        starting_comment: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = self.class.py();
        // SAFETY: `alloc` is the class's own `tp_alloc`, called as `object.__new__` calls it
        // (type, no items), with the interpreter attached.
        let raw = unsafe { (self.alloc)(self.class.as_type_ptr(), 0) };
        // SAFETY: `raw` is a new reference to an instance of `class`, or NULL with an error set.
        let node = unsafe { Bound::from_owned_ptr_or_err(py, raw)? };
        let layout = self.layout;
        for (offset, value) in [
            (layout.parent, parent.as_any()),
            (layout.r#move, r#move),
            (layout.variations, variations),
            (layout.comment, comment.as_any()),
            (layout.starting_comment, starting_comment.as_any()),
        ] {
            // SAFETY: `node` is a fresh instance of the measured class, whose fields at these
            // offsets are NULL (`tp_alloc` zeroes the instance).
            unsafe { set_field(&node, offset, value.clone()) };
        }
        Ok(node)
    }
}

/// Stores `value` in the field at `offset` of `node`, releasing what was there.
///
/// # Safety
/// `offset` must be the offset of an object field (a slot) of `node`'s class, measured by
/// [`NodeClass::of`], and the field must hold NULL or an owned reference.
pub(super) unsafe fn set_field(node: &Bound<'_, PyAny>, offset: usize, value: Bound<'_, PyAny>) {
    // SAFETY: the caller guarantees the offset is that of a slot inside the instance.
    let field = unsafe { node.as_ptr().cast::<u8>().add(offset) }.cast::<*mut ffi::PyObject>();
    // SAFETY: as above; the old value is an owned reference or NULL.
    let old = unsafe { std::ptr::replace(field, value.into_ptr()) };
    // SAFETY: `old` is NULL or an owned reference, released once, with the interpreter
    // attached (`node` is a `Bound`).
    unsafe { ffi::Py_XDECREF(old) };
}

/// The offsets of the node fields of `class`'s instances.
fn measure(class: &Bound<'_, PyType>) -> PyResult<Layout> {
    let py = class.py();
    let object = py.get_type::<PyAny>();
    let object_new = object.getattr(pyo3::intern!(py, "__new__"))?;
    let flags: u64 = class.getattr(pyo3::intern!(py, "__flags__"))?.extract()?;
    if !class.getattr(pyo3::intern!(py, "__new__"))?.is(&object_new) || flags & INLINE_VALUES != 0 {
        return Err(PyTypeError::new_err(format!(
            "{class} is not a node class the PGN reader can make"
        )));
    }
    let size: usize = class
        .getattr(pyo3::intern!(py, "__basicsize__"))?
        .extract()?;
    let instance = object_new.call1((class,))?;
    let word = std::mem::size_of::<*mut ffi::PyObject>();
    let offset_of = |name: &str| -> PyResult<usize> {
        let marker = object.call0()?;
        instance.setattr(name, &marker)?;
        let base = instance.as_ptr().cast::<u8>();
        let mut found = (0..size / word).map(|i| i * word).filter(|&offset| {
            // SAFETY: `offset` is word-aligned and inside the instance's `size` bytes.
            let field = unsafe { base.add(offset).cast::<*mut ffi::PyObject>().read() };
            field == marker.as_ptr()
        });
        match (found.next(), found.next()) {
            (Some(offset), None) => Ok(offset),
            _ => Err(PyTypeError::new_err(format!(
                "{class} keeps {name:?} outside its slots"
            ))),
        }
    };
    Ok(Layout {
        parent: offset_of("parent")?,
        r#move: offset_of("move")?,
        variations: offset_of("variations")?,
        comment: offset_of("comment")?,
        starting_comment: offset_of("starting_comment")?,
        nags: offset_of("_nags")?,
    })
}
