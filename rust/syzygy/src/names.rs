//! Table names and material keys.
//!
//! A Syzygy file is named after its material, strongest side first: `KQvKR.rtbw` holds the
//! positions with king and queen against king and rook, whichever colour has which. Inside a
//! side the pieces are written king, queen, rook, bishop, knight, pawn. [`normalize_tablename`]
//! puts any spelling into the form the files use; [`Material`] is the same information as
//! counts, the key a [`crate::Tablebase`] finds its tables by.
//!
//! ```
//! use pychess_syzygy::{normalize_tablename, dependencies, Material};
//! use pychess_core::Board;
//! assert_eq!(normalize_tablename("KNNvKBB", false).unwrap(), "KBBvKNN");
//! let board = Board::from_fen("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1", false).unwrap();
//! assert_eq!(Material::of(&board).key(), "KBNvK");
//! let mut deps = dependencies("KBNvK", true).unwrap();
//! deps.sort();
//! assert_eq!(deps, ["KBvK", "KNvK"]);
//! ```

use pychess_core::{Board, Color, Role};
use std::collections::HashSet;
use std::fmt;

/// The piece letters in the order a table name writes them.
const LETTERS: [char; 6] = ['K', 'Q', 'R', 'B', 'N', 'P'];

/// The roles in the order of [`LETTERS`].
const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The most pieces a Syzygy table holds (python-chess's `TBPIECES`).
pub const MAX_PIECES: u32 = 7;

/// A name that is not a table name: no `v`, or a letter that is not a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameError {
    /// The name as given.
    pub name: String,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a syzygy table name: {:?}", self.name)
    }
}

impl std::error::Error for NameError {}

/// How many pieces of each role each side has: the material a table covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Material {
    /// `counts[color][role.index()]`, White first, pawns first.
    counts: [[u8; 6]; 2],
}

impl Material {
    /// The material on a board.
    pub fn of(board: &Board) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in Color::ALL {
            for role in ROLES {
                counts[color.index()][role.index()] = board.pieces(color, role).count() as u8;
            }
        }
        Material { counts }
    }

    /// The material of a name (`"KRvKP"`: White's pieces left of the `v`), unnormalised.
    pub fn from_name(name: &str) -> Result<Material, NameError> {
        let error = || NameError {
            name: name.to_string(),
        };
        let (white, black) = name.split_once('v').ok_or_else(error)?;
        let mut counts = [[0u8; 6]; 2];
        for (side, letters) in [white, black].into_iter().enumerate() {
            for c in letters.chars() {
                let at = LETTERS.iter().position(|&l| l == c).ok_or_else(error)?;
                let slot = &mut counts[side][ROLES[at].index()];
                *slot = slot.checked_add(1).ok_or_else(error)?;
            }
        }
        Ok(Material { counts })
    }

    /// The material from a table's piece codes (`color << 3 | python-chess piece type`).
    pub(crate) fn from_codes(codes: &[u8]) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for &code in codes {
            if let Some(role) = Role::from_number(code & 7) {
                counts[usize::from(code >> 3 & 1)][role.index()] += 1;
            }
        }
        Material { counts }
    }

    /// The same material with the colours swapped.
    pub fn mirrored(self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// How many pieces of `role` `color` has.
    pub fn count(self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// All pieces, both sides.
    pub fn total(self) -> u32 {
        self.counts.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// python-chess's `calc_key`: White's pieces, `v`, Black's (`"KBNvK"`).
    pub fn key(self) -> String {
        let mut key = String::new();
        for (side, counts) in self.counts.iter().enumerate() {
            if side == 1 {
                key.push('v');
            }
            for (letter, role) in LETTERS.iter().zip(ROLES) {
                for _ in 0..counts[role.index()] {
                    key.push(*letter);
                }
            }
        }
        key
    }
}

/// The letter indices (K = 0 .. P = 5) of one side of a name, sorted.
fn sorted_side(side: &str, name: &str) -> Result<Vec<u8>, NameError> {
    let mut indices = side
        .chars()
        .map(|c| {
            LETTERS
                .iter()
                .position(|&l| l == c)
                .map(|i| i as u8)
                .ok_or_else(|| NameError {
                    name: name.to_string(),
                })
        })
        .collect::<Result<Vec<u8>, NameError>>()?;
    indices.sort_unstable();
    Ok(indices)
}

fn letters(indices: &[u8]) -> String {
    indices.iter().map(|&i| LETTERS[usize::from(i)]).collect()
}

/// The name as the files spell it (python-chess's `normalize_tablename`): each side sorted
/// K, Q, R, B, N, P, and the side with more pieces first; of two sides with as many pieces,
/// the one with the stronger pieces first. `mirror` gives the other side first instead.
pub fn normalize_tablename(name: &str, mirror: bool) -> Result<String, NameError> {
    let (white, black) = name.split_once('v').ok_or_else(|| NameError {
        name: name.to_string(),
    })?;
    let w = sorted_side(white, name)?;
    let b = sorted_side(black, name)?;
    let black_first = (w.len(), &b) < (b.len(), &w);
    Ok(if mirror ^ black_first {
        format!("{}v{}", letters(&b), letters(&w))
    } else {
        format!("{}v{}", letters(&w), letters(&b))
    })
}

/// Is `name` a table name (python-chess's `is_tablename`)? At most `piece_count` pieces
/// (`None`: any number), only piece letters, normalised when `normalized`, and with
/// `one_king` exactly the names a chess table can have (a king on each side, not `KvK`).
pub fn is_tablename(
    name: &str,
    one_king: bool,
    piece_count: Option<u32>,
    normalized: bool,
) -> bool {
    let Some((white, black)) = name.split_once('v') else {
        return false;
    };
    let piece_letters = |side: &str| !side.is_empty() && side.chars().all(|c| LETTERS.contains(&c));
    piece_count.map_or(true, |n| name.chars().count() <= n as usize + 1)
        && piece_letters(white)
        && piece_letters(black)
        && (!normalized || normalize_tablename(name, false).is_ok_and(|n| n == name))
        && (!one_king || (name != "KvK" && name.starts_with('K') && name.contains("vK")))
}

/// The tables one capture or promotion away (python-chess's `_dependencies`), normalised,
/// repeats included, in python-chess's order.
fn direct_dependencies(target: &str, one_king: bool) -> Result<Vec<String>, NameError> {
    let (w, b) = target.split_once('v').ok_or_else(|| NameError {
        name: target.to_string(),
    })?;
    let replace_one = |side: &str, from: char, to: &str| side.replacen(from, to, 1);
    let mut found = Vec::new();
    for p in LETTERS {
        if p == 'K' && one_king {
            continue;
        }
        let promoted = p.to_string();
        if p != 'P' && w.contains('P') {
            found.push(format!("{}v{}", replace_one(w, 'P', &promoted), b));
        }
        if p != 'P' && b.contains('P') {
            found.push(format!("{}v{}", w, replace_one(b, 'P', &promoted)));
        }
        if w.contains(p) && w.chars().count() > 1 {
            found.push(format!("{}v{}", replace_one(w, p, ""), b));
        }
        if b.contains(p) && b.chars().count() > 1 {
            found.push(format!("{}v{}", w, replace_one(b, p, "")));
        }
    }
    found
        .iter()
        .map(|name| normalize_tablename(name, false))
        .collect()
}

/// The tables a table's positions can reach in one capture or promotion (python-chess's
/// `dependencies`), each once, without `KvK` when `one_king`.
pub fn dependencies(target: &str, one_king: bool) -> Result<Vec<String>, NameError> {
    let mut closed: HashSet<String> = HashSet::new();
    if one_king {
        closed.insert("KvK".to_string());
    }
    let mut out = Vec::new();
    for name in direct_dependencies(target, one_king)? {
        if name.len() > 2 && closed.insert(name.clone()) {
            out.push(name);
        }
    }
    Ok(out)
}

/// The targets and every table they reach, each once (python-chess's `all_dependencies`,
/// in its order).
pub fn all_dependencies<S: AsRef<str>>(
    targets: &[S],
    one_king: bool,
) -> Result<Vec<String>, NameError> {
    let mut closed: HashSet<String> = HashSet::new();
    if one_king {
        closed.insert("KvK".to_string());
    }
    let mut open = targets
        .iter()
        .map(|t| normalize_tablename(t.as_ref(), false))
        .collect::<Result<Vec<String>, NameError>>()?;
    let mut out = Vec::new();
    while let Some(name) = open.pop() {
        if !closed.insert(name.clone()) {
            continue;
        }
        open.extend(direct_dependencies(&name, one_king)?);
        out.push(name);
    }
    Ok(out)
}

/// Every table name with up to `piece_count` pieces (python-chess's `tablenames`): the
/// all-pawn targets and what they reach.
pub fn tablenames(one_king: bool, piece_count: u32) -> Vec<String> {
    let first = if one_king { "K" } else { "P" };
    let mut targets = Vec::new();
    let mut white = i64::from(piece_count) - 2;
    let mut black = 0i64;
    while white >= black {
        targets.push(format!(
            "{first}{}v{first}{}",
            "P".repeat(white as usize),
            "P".repeat(black as usize)
        ));
        white -= 1;
        black += 1;
    }
    all_dependencies(&targets, one_king).expect("generated names are table names")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_as_the_files_are_named() {
        assert_eq!(normalize_tablename("KNNvKBB", false).unwrap(), "KBBvKNN");
        assert_eq!(normalize_tablename("KvKQ", false).unwrap(), "KQvK");
        assert_eq!(normalize_tablename("KQvK", true).unwrap(), "KvKQ");
        assert_eq!(normalize_tablename("KPvKR", false).unwrap(), "KRvKP");
        assert!(normalize_tablename("KQK", false).is_err());
        assert!(normalize_tablename("KXvK", false).is_err());
    }

    #[test]
    fn table_names_and_dependencies() {
        let names = tablenames(true, 6);
        for name in [
            "KPPvKN", "KNNPvKN", "KQRNvKR", "KRRRvKR", "KRRvKRR", "KRNvKRP", "KRPvKP",
        ] {
            assert!(names.iter().any(|n| n == name), "{name}");
        }
        assert_eq!(
            tablenames(false, 6).iter().filter(|n| n.len() == 7).count(),
            5754
        );
        let mut deps = dependencies("KBNvK", true).unwrap();
        deps.sort();
        assert_eq!(deps, ["KBvK", "KNvK"]);
        let deps = dependencies("KRPvKP", true).unwrap();
        for name in ["KQRvKP", "KRvKP", "KRPvK", "KPvKP", "KRPvKQ"] {
            assert!(deps.iter().any(|n| n == name), "{name} in {deps:?}");
        }
        assert!(is_tablename("KQvK", true, Some(7), true));
        assert!(!is_tablename("KvKQ", true, Some(7), true));
        assert!(!is_tablename("KvK", true, Some(7), true));
        assert!(!is_tablename("KQQQQQQvK", true, Some(7), true));
    }

    #[test]
    fn material_keys() {
        let m = Material::from_name("KRvKP").unwrap();
        assert_eq!(m.key(), "KRvKP");
        assert_eq!(m.mirrored().key(), "KPvKR");
        assert_eq!(m.total(), 4);
        assert_eq!(Material::from_codes(&[6, 4, 14, 9]), m);
    }
}
