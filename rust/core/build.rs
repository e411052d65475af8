//! Finds magic multipliers for rook and bishop attacks and writes them, with the attack
//! table they index, to `OUT_DIR/magics.rs`. The search is seeded, so every build writes
//! the same table; nothing generated is committed.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

#[allow(dead_code)]
mod reference {
    include!("src/attacks/reference.rs");
}

use reference::{relevant_occupancy, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: tiny, seeded, good enough to find magics.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Returns (mask, magic, shift, attacks-by-index) for one square.
fn find_magic(square: u32, directions: &[(i8, i8); 4], rng: &mut Rng) -> (u64, u64, u32, Vec<u64>) {
    let mask = relevant_occupancy(square, directions);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let mut subsets = Vec::with_capacity(1 << bits);
    let mut subset = 0u64;
    loop {
        subsets.push((subset, slider_attacks(square, subset, directions)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let ok = subsets.iter().all(|&(occ, att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if used[idx] != attempt {
                used[idx] = attempt;
                table[idx] = att;
                true
            } else {
                table[idx] == att
            }
        });
        if ok {
            return (mask, magic, shift, table);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/attacks/reference.rs");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = String::new();
    let mut attacks: Vec<u64> = Vec::new();
    for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
        writeln!(out, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for square in 0..64 {
            let (mask, magic, shift, table) = find_magic(square, directions, &mut rng);
            writeln!(
                out,
                "    Magic {{ mask: {mask:#x}, magic: {magic:#x}, shift: {shift}, offset: {} }},",
                attacks.len()
            )
            .unwrap();
            attacks.extend(table);
        }
        writeln!(out, "];").unwrap();
    }
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        attacks.len()
    )
    .unwrap();
    for chunk in attacks.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|a| format!("{a:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
    let path = Path::new(&env::var("OUT_DIR").unwrap()).join("magics.rs");
    fs::write(path, out).unwrap();
}
