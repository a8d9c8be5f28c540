//! The numbers the unit tests draw at random: a linear congruential generator (Knuth's MMIX constants), so that a
//! test walks the same positions on every run and needs no crate for it.

/// A stream of pseudo-random numbers from a seed.
pub(crate) struct Lcg(u64);

impl Lcg {
    /// The stream from `seed`.
    pub(crate) fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// The next number; its high bits are the random ones.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0
    }
}
