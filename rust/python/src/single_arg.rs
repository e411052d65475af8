//! One-argument methods declared with `METH_O`, the cheapest calling convention the stable
//! ABI offers for them.
//!
//! Built for abi3 with Python 3.9 as the floor, PyO3 declares every method that takes
//! arguments as `METH_VARARGS | METH_KEYWORDS` (the limited API gained `METH_FASTCALL` only
//! in 3.10): each call then packs its argument into a fresh tuple that PyO3 unpacks again.
//! For `Board.push`, the method a Python search loop calls most, that packing was about half
//! of the call's instructions (callgrind). `METH_O` hands the one argument over as it is, like
//! CPython's own `list.append`. Such methods take their argument positionally only.
//!
//! This module is the one place that talks to the C API for it: a method body is plain Rust
//! (`fn(&Bound<PyAny>, &Bound<PyAny>) -> PyResult<Py<PyAny>>`), wrapped by the
//! [`single_arg_method!`] macro and installed on its class at module init. Errors become
//! Python exceptions and a panic becomes `PanicException`, as in PyO3's own wrappers.

use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::PyType;
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A method body: `self`, then the argument.
pub(crate) type Body = for<'py> fn(&Bound<'py, PyAny>, &Bound<'py, PyAny>) -> PyResult<Py<PyAny>>;

/// Calls `body` for CPython: a new reference on success, NULL with the exception set on
/// error or panic.
///
/// # Safety
/// The interpreter must be attached and `slf`, `arg` must be valid borrowed references (what
/// CPython guarantees when it calls a `METH_O` function).
pub(crate) unsafe fn call(
    slf: *mut ffi::PyObject,
    arg: *mut ffi::PyObject,
    body: Body,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls METH_O functions with the interpreter attached.
    let py = unsafe { Python::assume_attached() };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: both pointers are live borrowed references for the duration of the call.
        let (slf, arg) = unsafe {
            (
                Bound::from_borrowed_ptr(py, slf),
                Bound::from_borrowed_ptr(py, arg),
            )
        };
        body(&slf, &arg)
    }));
    let error = match outcome {
        Ok(Ok(value)) => return value.into_ptr(),
        Ok(Err(error)) => error,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic in a Rust method".to_string());
            PanicException::new_err(message)
        }
    };
    error.restore(py);
    std::ptr::null_mut()
}

/// Defines `extern "C" fn $name(self, arg)` running the body `$body` through [`call`].
macro_rules! single_arg_method {
    ($name:ident => $body:path) => {
        unsafe extern "C" fn $name(
            slf: *mut pyo3::ffi::PyObject,
            arg: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            // SAFETY: only CPython calls this, as a METH_O method (see `install`).
            unsafe { $crate::single_arg::call(slf, arg, $body) }
        }
    };
}
pub(crate) use single_arg_method;

/// Installs `function` (made by [`single_arg_method!`]) as the method `name` of `class`.
///
/// `doc` follows CPython's convention: a first line `name($self, arg, /)` and `--` give
/// `inspect.signature` the signature.
pub(crate) fn install(
    class: &Bound<'_, PyType>,
    name: &'static CStr,
    doc: &'static CStr,
    function: unsafe extern "C" fn(*mut ffi::PyObject, *mut ffi::PyObject) -> *mut ffi::PyObject,
) -> PyResult<()> {
    let py = class.py();
    // The method descriptor keeps a pointer to its definition for the life of the class,
    // which lives as long as the interpreter: leaking one small record per method is intended.
    let definition = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunction: function,
        },
        ml_flags: ffi::METH_O,
        ml_doc: doc.as_ptr(),
    }));
    // SAFETY: `class` is a live type object and `definition` outlives it.
    let descriptor = unsafe {
        let raw = ffi::PyDescr_NewMethod(class.as_type_ptr(), definition);
        Bound::from_owned_ptr_or_err(py, raw)?
    };
    class.setattr(name.to_str().expect("method names are ASCII"), descriptor)
}
