//! Every table's index scheme against the entry numbers python-chess 1.11's `chess.gaviota`
//! computes (`tests/data/indices.txt`, written by `tools/gaviota_indices.py`): sixteen random
//! placements of each of the 145 Gaviota tables, 3 to 5 pieces. The 4- and 5-piece tables
//! themselves are too big to ship for tests; their numbering is checked here.

use pychess_gaviota::Scheme;

const INDICES: &str = include_str!("data/indices.txt");

fn squares(field: &str) -> Vec<usize> {
    field.split(',').map(|s| s.parse().unwrap()).collect()
}

#[test]
fn every_scheme_numbers_entries_as_python_chess() {
    let mut checked = 0;
    let mut names = std::collections::HashSet::new();
    for line in INDICES.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let [name, white, black, index] = fields[..] else {
            panic!("bad line {line:?}");
        };
        let scheme = Scheme::for_name(name).unwrap_or_else(|| panic!("no scheme for {name}"));
        let expected: i64 = index.parse().unwrap();
        let got = scheme.index(&squares(white), &squares(black));
        assert_eq!(got.map(|i| i as i64), Some(expected), "{line}");
        assert!(got.unwrap() < scheme.size(), "{line}: past the table's end");
        checked += 1;
        names.insert(name);
    }
    assert_eq!(names.len(), 145);
    assert_eq!(checked, 145 * 16);
}
