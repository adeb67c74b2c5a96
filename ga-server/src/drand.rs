//! `drand`, the random number helper GA's Fortran test programs call:
//! `double precision drand(iseed)`. GA's library carries its own BSD-style
//! `random()` (an additive feedback generator of degree 31 and separation
//! 3 over 64-bit words, seeded by the multiplier 1103515245, increment
//! 12345 and 310 discarded draws), and `drand` scales its 31-bit draws by
//! 4.6566128752458e-10. A nonzero seed restarts the sequence (its low 32
//! bits); the sequence before any seed is the one of seed 1.

use std::sync::Mutex;

const DEGREE: usize = 31;
const SEPARATION: usize = 3;
const SCALE: f64 = 4.656_612_875_245_8e-10;

struct Generator {
    state: [i64; DEGREE],
    front: usize,
    rear: usize,
}

impl Generator {
    fn seeded(seed: u32) -> Generator {
        let mut state = [0i64; DEGREE];
        state[0] = i64::from(seed);
        for i in 1..DEGREE {
            state[i] = state[i - 1].wrapping_mul(1_103_515_245).wrapping_add(12345);
        }
        let mut g = Generator {
            state,
            front: SEPARATION,
            rear: 0,
        };
        for _ in 0..10 * DEGREE {
            g.next();
        }
        g
    }

    fn next(&mut self) -> i64 {
        let sum = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = sum;
        self.front = (self.front + 1) % DEGREE;
        self.rear = (self.rear + 1) % DEGREE;
        (sum >> 1) & 0x7fff_ffff
    }
}

static GENERATOR: Mutex<Option<Generator>> = Mutex::new(None);

/// The next number in [0, 1), after restarting the sequence with `seed`
/// when it is nonzero.
pub fn next(seed: i64) -> f64 {
    let mut g = GENERATOR.lock().unwrap_or_else(|e| e.into_inner());
    if seed != 0 || g.is_none() {
        *g = Some(Generator::seeded(if seed != 0 { seed as u32 } else { 1 }));
    }
    let r = g.as_mut().map_or(0, Generator::next);
    r as f64 * SCALE
}
