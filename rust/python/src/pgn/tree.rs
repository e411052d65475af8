//! python-chess's `GameBuilder` done in Rust, for the visitor driver: the moves, comments,
//! NAGs and variations of a game become its node tree during the parse, as `GameBuilder`'s
//! methods would build it, without a Python call per move. Each move becomes a `ChildNode`
//! with the fields its `__init__` sets (made as `node.rs` makes them); a node's NAG set is
//! left to the class, which makes it when first asked.

use super::node::{set_field, NodeClass};
use super::text;
use crate::moves::Move;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySet, PyType};

/// python-chess's `TAG_ROSTER`: these tags go to the first of `Headers`' two dictionaries.
const TAG_ROSTER: [&[u8]; 7] = [
    b"Event", b"Site", b"Date", b"Round", b"White", b"Black", b"Result",
];

/// A game tree being built: `GameBuilder`'s variation stack and pending starting comment.
pub(super) struct Tree<'py> {
    py: Python<'py>,
    nodes: NodeClass<'py>,
    /// The node each open line continues from (the game first).
    stack: Vec<Entry<'py>>,
    /// A comment met before a line's first move: the next node's `starting_comment`.
    starting_comment: Vec<u8>,
    /// Has the current line had a move yet (`GameBuilder.in_variation`)?
    in_variation: bool,
    /// The game's `Headers` dictionaries (Seven Tag Roster, others), when tags may be put
    /// there directly: parsed tag names and values always pass `Headers`' checks.
    tags: Option<(Bound<'py, PyDict>, Bound<'py, PyDict>)>,
}

struct Entry<'py> {
    node: Bound<'py, PyAny>,
    /// Is the node the game (the root, whose `parent` is None)?
    is_root: bool,
    variations: Bound<'py, PyList>,
    /// Was the node made here, so that it has no comment yet unless `commented`?
    made_here: bool,
    commented: bool,
    /// The NAG set given to a node made here.
    nags: Option<Bound<'py, PySet>>,
}

impl<'py> Entry<'py> {
    fn existing(node: Bound<'py, PyAny>, is_root: bool) -> PyResult<Entry<'py>> {
        let variations = node
            .getattr(intern!(node.py(), "variations"))?
            .cast_into::<PyList>()?;
        Ok(Entry {
            node,
            is_root,
            variations,
            made_here: false,
            commented: false,
            nags: None,
        })
    }
}

impl<'py> Tree<'py> {
    /// The tree of `builder`'s game (its `begin_game` has run): nodes of `child_class`, and
    /// the tags put straight into the game's headers when they are exactly `headers_class`.
    pub(super) fn new(
        builder: &Bound<'py, PyAny>,
        child_class: Bound<'py, PyType>,
        headers_class: Option<&Bound<'py, PyType>>,
    ) -> PyResult<Tree<'py>> {
        let py = builder.py();
        let game = builder.getattr(intern!(py, "game"))?;
        let mut tags = None;
        if let Some(class) = headers_class {
            let headers = game.getattr(intern!(py, "headers"))?;
            if headers.get_type().is(class) {
                tags = Some((
                    headers
                        .getattr(intern!(py, "_tag_roster"))?
                        .cast_into::<PyDict>()?,
                    headers
                        .getattr(intern!(py, "_others"))?
                        .cast_into::<PyDict>()?,
                ));
            }
        }
        Ok(Tree {
            py,
            nodes: NodeClass::of(child_class)?,
            stack: vec![Entry::existing(game, true)?],
            starting_comment: Vec::new(),
            in_variation: false,
            tags,
        })
    }

    /// Puts a tag into the headers; `false` when the builder's `visit_header` must do it.
    pub(super) fn visit_header(&mut self, name: &[u8], value: &[u8]) -> PyResult<bool> {
        let Some((roster, others)) = &self.tags else {
            return Ok(false);
        };
        let dict = if TAG_ROSTER.contains(&name) {
            roster
        } else {
            others
        };
        dict.set_item(text(self.py, name)?, text(self.py, value)?)?;
        Ok(true)
    }

    /// The node the current line continues from.
    fn top(&self) -> PyResult<&Entry<'py>> {
        // The parser pairs every end of a variation with its start, so the game stays.
        self.stack
            .last()
            .ok_or_else(|| PyValueError::new_err("the PGN tree builder lost its variation stack"))
    }

    pub(super) fn visit_move(&mut self, m: &Py<Move>) -> PyResult<()> {
        let py = self.py;
        let empty = intern!(py, "");
        let starting_comment = if self.starting_comment.is_empty() {
            empty.clone()
        } else {
            text(py, &self.starting_comment)?
        };
        let top = self.top()?;
        let variations = PyList::empty(py);
        let node = self.nodes.make(
            &top.node,
            m.bind(py).as_any(),
            variations.as_any(),
            empty,
            &starting_comment,
        )?;
        top.variations.append(&node)?;
        self.starting_comment.clear();
        let entry = Entry {
            node,
            is_root: false,
            variations,
            made_here: true,
            commented: false,
            nags: None,
        };
        if let Some(last) = self.stack.last_mut() {
            *last = entry;
        }
        self.in_variation = true;
        Ok(())
    }

    pub(super) fn visit_comment(&mut self, comment: &[u8]) -> PyResult<()> {
        let py = self.py;
        let Some(top) = self.stack.last_mut() else {
            return Err(PyValueError::new_err(
                "the PGN tree builder lost its variation stack",
            ));
        };
        let at_end = top.is_root && top.variations.is_empty();
        if !(self.in_variation || at_end) {
            if !self.starting_comment.is_empty() && !comment.is_empty() {
                self.starting_comment.push(b' ');
            }
            self.starting_comment.extend_from_slice(comment);
            return Ok(());
        }
        if comment.is_empty() {
            return Ok(()); // joining "" changes nothing
        }
        let name = intern!(py, "comment");
        let new = text(py, comment)?;
        if top.made_here && !top.commented {
            // SAFETY: `top.node` was made by `self.nodes`, whose layout has this offset, and
            // its comment field holds an owned reference.
            unsafe { set_field(&top.node, self.nodes.layout.comment, new.into_any()) };
        } else {
            // " ".join(filter(None, [old, new])), on Python strings (they may hold lone
            // surrogates, which Rust strings cannot).
            let old = top.node.getattr(name)?;
            if old.is_truthy()? {
                top.node.setattr(name, old.add(" ")?.add(new)?)?;
            } else {
                top.node.setattr(name, new)?;
            }
        }
        top.commented = true;
        Ok(())
    }

    pub(super) fn visit_nag(&mut self, nag: u64) -> PyResult<()> {
        let py = self.py;
        let Some(top) = self.stack.last_mut() else {
            return Err(PyValueError::new_err(
                "the PGN tree builder lost its variation stack",
            ));
        };
        if !top.made_here {
            top.node
                .getattr(intern!(py, "nags"))?
                .call_method1(intern!(py, "add"), (nag,))?;
            return Ok(());
        }
        if top.nags.is_none() {
            let set = PySet::empty(py)?;
            // SAFETY: `top.node` was made by `self.nodes`, whose layout has this offset; its
            // NAG field holds NULL or an owned reference.
            unsafe { set_field(&top.node, self.nodes.layout.nags, set.clone().into_any()) };
            top.nags = Some(set);
        }
        if let Some(set) = &top.nags {
            set.add(nag)?;
        }
        Ok(())
    }

    pub(super) fn begin_variation(&mut self) -> PyResult<()> {
        let py = self.py;
        let parent = self.top()?.node.getattr(intern!(py, "parent"))?;
        if parent.is_none() {
            return Err(PyRuntimeError::new_err(
                "begin_variation called, but root node on top of stack",
            ));
        }
        let is_root = parent.getattr(intern!(py, "parent"))?.is_none();
        self.stack.push(Entry::existing(parent, is_root)?);
        self.in_variation = false;
        Ok(())
    }

    pub(super) fn end_variation(&mut self) {
        self.stack.pop();
    }
}
