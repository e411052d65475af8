//! Strength limiting: `Skill Level` 0..=20 and `UCI_LimitStrength` + `UCI_Elo`.
//!
//! A weakened search looks at several lines (MultiPV), stops at a skill-dependent depth and
//! node count, and then picks among the lines with a score noise that grows as the skill
//! falls, so that weaker levels sometimes choose a clearly worse move. The noise comes from
//! a generator seeded by the root position, so a given position and level always give the
//! same move (reproducible games and tests).
//!
//! Elo maps to a skill level through [`ELO_FOR_SKILL`], one anchor rating per level with
//! linear interpolation between anchors. The anchors are measured on Stockfish 15.1's own
//! `UCI_Elo` scale by `tools/calibrate.py` (docs/strength.md, "Strength levels"): levels 5, 10
//! and 15 against Stockfish at 5s+0.05s, 24 games each, and full strength from the 40 games
//! against `UCI_Elo` 2400 at 10s+0.1s; linear in between, and below level 5 extended with
//! the slope of levels 5..10 (Stockfish plays no weaker than 1350).

use pychess_core::Move;

/// The lowest `UCI_Elo` accepted (lower requests are raised to it): level 0's rating.
pub const MIN_ELO: u32 = ELO_FOR_SKILL[0];
/// The highest `UCI_Elo` accepted (higher requests are lowered to it): full strength's.
pub const MAX_ELO: u32 = ELO_FOR_SKILL[MAX_SKILL as usize];
/// Full strength: no weakening.
pub const MAX_SKILL: u32 = 20;

/// The rating each skill level is meant to play at (index = level).
pub const ELO_FOR_SKILL: [u32; 21] = [
    941, 1037, 1134, 1230, 1327, 1423, 1520, 1617, 1713, 1810, 1906, 1949, 1992, 2035, 2078, 2120,
    2168, 2215, 2262, 2309, 2356,
];

/// Lines a weakened search considers.
pub const SKILL_MULTIPV: usize = 4;

/// A weakening level with a fractional part (from interpolated Elo), 0.0..20.0.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The weakening the options ask for, or `None` at full strength. `limit_elo` wins over
    /// `skill_level`, as Stockfish does.
    pub fn from_options(limit_elo: Option<u32>, skill_level: u32) -> Option<Skill> {
        let level = match limit_elo {
            Some(elo) => elo_to_level(elo),
            None => f64::from(skill_level.min(MAX_SKILL)),
        };
        (level < f64::from(MAX_SKILL)).then_some(Skill { level })
    }

    /// The deepest iteration this level searches.
    pub fn max_depth(&self) -> i32 {
        1 + self.level as i32
    }

    /// The most nodes this level searches: doubling every two levels, from 2000.
    pub fn max_nodes(&self) -> u64 {
        (2000.0 * 2f64.powf(self.level / 2.0)) as u64
    }

    /// Picks one of `lines` (move, score in centipawns; best first). The noise is
    /// uniform in `0..=amplitude`, with the amplitude shrinking quadratically as the level
    /// rises; lines more than the amplitude behind the best are never chosen.
    pub fn pick(&self, lines: &[(Move, i32)], seed: u64) -> Option<Move> {
        let best = lines.first()?.1;
        let gap = 20.0 - self.level;
        let amplitude = (10.0 + gap * gap * 1.5) as i64;
        let mut rng = seed ^ 0x9e37_79b9_7f4a_7c15;
        let mut choice = None;
        let mut choice_value = i64::MIN;
        for &(m, score) in lines {
            if i64::from(best) - i64::from(score) > amplitude {
                continue;
            }
            let noise = (splitmix(&mut rng) % (amplitude as u64 + 1)) as i64;
            let value = i64::from(score) + noise;
            if value > choice_value {
                choice_value = value;
                choice = Some(m);
            }
        }
        choice
    }
}

/// The (fractional) skill level for a rating, interpolated in [`ELO_FOR_SKILL`].
pub fn elo_to_level(elo: u32) -> f64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    for level in 0..MAX_SKILL as usize {
        let (low, high) = (ELO_FOR_SKILL[level], ELO_FOR_SKILL[level + 1]);
        if elo <= high {
            return level as f64 + f64::from(elo - low) / f64::from(high - low);
        }
    }
    f64::from(MAX_SKILL)
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::{MoveKind, Square};

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(elo_to_level(100), 0.0);
        assert_eq!(elo_to_level(MAX_ELO), 20.0);
        assert!((elo_to_level(2000) - 12.19).abs() < 0.01);
        assert!((elo_to_level(1423) - 5.0).abs() < 1e-9);
        assert!(ELO_FOR_SKILL.windows(2).all(|w| w[0] < w[1]));
        assert!(Skill::from_options(Some(MAX_ELO), 0).is_none());
        assert!(Skill::from_options(None, 20).is_none());
        assert_eq!(Skill::from_options(None, 3).unwrap().max_depth(), 4);
    }

    #[test]
    fn picks_are_reproducible_and_weak_levels_vary() {
        let m = |i: u8| Move::new(Square::new(i), Square::new(i + 8), MoveKind::Normal);
        let lines = [(m(8), 50), (m(9), 30), (m(10), -20), (m(11), -900)];
        let weak = Skill::from_options(None, 0).unwrap();
        assert_eq!(weak.pick(&lines, 7), weak.pick(&lines, 7));
        let picks: std::collections::HashSet<_> = (0..200)
            .filter_map(|seed| weak.pick(&lines, seed))
            .collect();
        assert!(picks.len() >= 3 && !picks.contains(&m(11)));
        let strong = Skill::from_options(None, 19).unwrap();
        assert!((0..200).all(|seed| strong.pick(&lines, seed) == Some(m(8))));
    }
}
