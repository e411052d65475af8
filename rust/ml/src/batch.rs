//! Many games stepped together by arrays of actions.
