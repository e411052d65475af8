//! The hottest methods, declared with CPython's cheapest calling conventions: `METH_O` for
//! one argument, `METH_NOARGS` for none.
//!
//! Built for abi3 with Python 3.9 as the floor, PyO3 declares every method that takes
//! arguments as `METH_VARARGS | METH_KEYWORDS` (the limited API gained `METH_FASTCALL` only
//! in 3.10): each call then packs its argument into a fresh tuple that PyO3 unpacks again.
//! For `Board.push`, the method a Python search loop calls most, that packing was about half
//! of the call's instructions (callgrind). `METH_O` hands the one argument over as it is, like
//! CPython's own `list.append`; such methods take their argument positionally only. For
//! methods without arguments PyO3 already uses `METH_NOARGS`, but its wrapper also keeps
//! thread-local bookkeeping and reference counts that a method like `pop` does not need.
//!
//! This module is the one place that talks to the C API for it: a method body is plain Rust
//! over borrowed references (no reference-count traffic of its own), wrapped by
//! [`one_arg_method!`] or [`no_arg_method!`] and installed on its class at module init.
//! Errors become Python exceptions and a panic becomes `PanicException`, as in PyO3's own
//! wrappers. Unlike those, the success path does not register with PyO3's thread-local attach
//! count (that bookkeeping is what makes PyO3's wrapper of `pop` slower): bodies must not drop
//! a `Py` when they succeed (they hand their result over with `into_ptr`), and the error path
//! attaches properly, so that the exception's objects are released at once.

use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::PyType;
use std::ffi::{c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A C function as CPython calls `METH_O` and `METH_NOARGS` methods.
pub(crate) type CFunction =
    unsafe extern "C" fn(*mut ffi::PyObject, *mut ffi::PyObject) -> *mut ffi::PyObject;

/// Runs `body` for CPython: a new reference on success, NULL with the exception set on
/// error or panic.
///
/// # Safety
/// The interpreter must be attached (as it is when CPython calls a method).
pub(crate) unsafe fn call(
    body: impl FnOnce(Python<'_>) -> PyResult<Py<PyAny>>,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls methods with the interpreter attached.
    let py = unsafe { Python::assume_attached() };
    let error = match catch_unwind(AssertUnwindSafe(|| body(py))) {
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
    // Raising builds and drops `Py` objects; inside `attach` PyO3 releases them at once
    // instead of deferring them to its next call.
    Python::attach(|py| error.restore(py));
    std::ptr::null_mut()
}

/// A method made by [`one_arg_method!`] or [`no_arg_method!`]: its C function with the
/// calling convention it was written for, so that the two cannot be paired wrongly.
pub(crate) struct FastMethod {
    function: CFunction,
    flags: c_int,
}

impl FastMethod {
    /// Only for [`one_arg_method!`]: `function` must expect `METH_O` arguments.
    #[doc(hidden)]
    pub(crate) const fn one_arg(function: CFunction) -> FastMethod {
        FastMethod {
            function,
            flags: ffi::METH_O,
        }
    }

    /// Only for [`no_arg_method!`]: `function` must expect `METH_NOARGS` arguments.
    #[doc(hidden)]
    pub(crate) const fn no_args(function: CFunction) -> FastMethod {
        FastMethod {
            function,
            flags: ffi::METH_NOARGS,
        }
    }
}

/// Defines the [`FastMethod`] `$name` for `METH_O`, running the `unsafe fn`
/// `$body(self: Borrowed<PyAny>, arg: Borrowed<PyAny>) -> PyResult<Py<PyAny>>`, whose contract
/// on `self` is the one [`install`]'s caller promises.
macro_rules! one_arg_method {
    ($name:ident => $body:path) => {
        const $name: $crate::fast_methods::FastMethod = {
            unsafe extern "C" fn function(
                slf: *mut pyo3::ffi::PyObject,
                arg: *mut pyo3::ffi::PyObject,
            ) -> *mut pyo3::ffi::PyObject {
                // SAFETY: only CPython calls this, as a METH_O method (see `install`), with
                // live borrowed references to `self` and the argument; `self` is what
                // `install`'s caller promised `$body`.
                unsafe {
                    $crate::fast_methods::call(|py| {
                        $body(
                            pyo3::Borrowed::from_ptr(py, slf),
                            pyo3::Borrowed::from_ptr(py, arg),
                        )
                    })
                }
            }
            $crate::fast_methods::FastMethod::one_arg(function)
        };
    };
}
pub(crate) use one_arg_method;

/// Defines the [`FastMethod`] `$name` for `METH_NOARGS`, running the `unsafe fn`
/// `$body(self: Borrowed<PyAny>) -> PyResult<Py<PyAny>>` (contract as for [`one_arg_method!`]).
macro_rules! no_arg_method {
    ($name:ident => $body:path) => {
        const $name: $crate::fast_methods::FastMethod = {
            unsafe extern "C" fn function(
                slf: *mut pyo3::ffi::PyObject,
                _unused: *mut pyo3::ffi::PyObject,
            ) -> *mut pyo3::ffi::PyObject {
                // SAFETY: only CPython calls this, as a METH_NOARGS method (see `install`),
                // with a live borrowed reference to `self`, which is what `install`'s caller
                // promised `$body`.
                unsafe { $crate::fast_methods::call(|py| $body(pyo3::Borrowed::from_ptr(py, slf))) }
            }
            $crate::fast_methods::FastMethod::no_args(function)
        };
    };
}
pub(crate) use no_arg_method;

/// Installs `method` as the method `name` of `class`, replacing what PyO3 put there.
///
/// `doc` follows CPython's convention: a first line such as `name($self, arg, /)` and a `--`
/// line give `inspect.signature` the signature.
///
/// # Safety
/// `method`'s body must be sound for every `self` CPython will pass: any instance of `class`
/// or of a subclass (the method descriptor checks that much, nothing more). A body that
/// casts `self` to a Rust class without checking must only be installed on that class.
pub(crate) unsafe fn install(
    class: &Bound<'_, PyType>,
    name: &'static CStr,
    doc: &'static CStr,
    method: FastMethod,
) -> PyResult<MethodDef> {
    let definition = MethodDef::new(name, doc, method);
    // SAFETY: as the caller promises.
    unsafe { install_def(class, definition)? };
    Ok(definition)
}

/// A method's definition, made once and kept for the life of the interpreter (a method
/// descriptor points at it for as long as its class lives).
#[derive(Clone, Copy)]
pub(crate) struct MethodDef(*mut ffi::PyMethodDef);

// SAFETY: the definition is never written after it is made, and CPython reads it only with
// the interpreter attached.
unsafe impl Send for MethodDef {}
// SAFETY: as for `Send`.
unsafe impl Sync for MethodDef {}

impl MethodDef {
    fn new(name: &'static CStr, doc: &'static CStr, method: FastMethod) -> MethodDef {
        // Leaking one small record per method is intended (see the type's documentation).
        MethodDef(Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: name.as_ptr(),
            ml_meth: ffi::PyMethodDefPointer {
                PyCFunction: method.function,
            },
            ml_flags: method.flags,
            ml_doc: doc.as_ptr(),
        })))
    }
}

/// Installs the method `definition` on `class` (a descriptor of its own, whose class is
/// `class`: CPython's specialised calls of a method descriptor require the instance's type to
/// be exactly the descriptor's class, so a subclass calling through its base's descriptor
/// takes the generic path).
///
/// # Safety
/// As for [`install`]: `definition`'s body must be sound for every instance of `class`.
pub(crate) unsafe fn install_def(class: &Bound<'_, PyType>, definition: MethodDef) -> PyResult<()> {
    // SAFETY: `class` is a live type object and `definition` outlives it (never freed).
    let descriptor = unsafe {
        let raw = ffi::PyDescr_NewMethod(class.as_type_ptr(), definition.0);
        Bound::from_owned_ptr_or_err(class.py(), raw)?
    };
    // SAFETY: `definition.0` points at a live definition whose name is a C string.
    let name = unsafe { CStr::from_ptr((*definition.0).ml_name) };
    class.setattr(name.to_str().expect("method names are ASCII"), descriptor)
}
