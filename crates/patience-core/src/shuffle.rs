//! Deal numbers: from a number to a shuffled pack, reproducing PySolFC's game numbers.
//!
//! Written from the specification in `DEALS.md` (sections 1, 2 and 4), not from PySolFC's code.
//! Deal N lays out the same cards as PySolFC's game #N, so a change to anything here that alters
//! the result for some number is a breaking change.

/// Deal numbers below this use the Microsoft C runtime generator and may be written `ms<N>`;
/// from here on MT19937 is used.
const MS_LIMIT: u64 = 32_000;

/// Cards in a pack.
const PACK_SIZE: usize = 52;

/// Ranks in a suit.
const RANKS: u8 = 13;

/// A deal number could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealNumberError {
    /// The text was empty (or only whitespace).
    #[error(
        "no deal number given: expected a whole number from 1 to 18446744073709551615, \
         or ms1 to ms31999"
    )]
    Empty,
    /// The text was not a whole number, with or without the `ms` prefix.
    #[error(
        "{given:?} is not a deal number: expected a whole number from 1 to \
         18446744073709551615, or ms1 to ms31999"
    )]
    NotANumber {
        /// The text as given.
        given: String,
    },
    /// The number was 0, which names no deal.
    #[error("{given:?} is not a deal: deal numbers start at 1")]
    Zero {
        /// The text as given.
        given: String,
    },
    /// The number does not fit in 64 bits.
    #[error("{given:?} is too large: deal numbers go up to 18446744073709551615")]
    TooLarge {
        /// The text as given.
        given: String,
    },
    /// An `ms` number outside `ms1..=ms31999`.
    #[error("{given:?} is out of range: ms numbers go from ms1 to ms31999")]
    MsOutOfRange {
        /// The text as given.
        given: String,
    },
}

/// Parses "123", "ms123" (ms only below 32000) into a deal number >= 1.
///
/// Surrounding whitespace is ignored and the `ms` prefix may be in any case. Only ASCII digits are
/// accepted after the optional prefix, so signs ("+3", "-3") are rejected.
pub fn parse_deal_number(text: &str) -> Result<u64, DealNumberError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(DealNumberError::Empty);
    }
    let given = || trimmed.to_owned();
    // `get` rather than slicing: the text may start with a multi-byte character.
    let ms_digits = trimmed
        .get(..2)
        .filter(|prefix| prefix.eq_ignore_ascii_case("ms"))
        .and_then(|_| trimmed.get(2..));
    let digits = ms_digits.unwrap_or(trimmed);
    // `u64::from_str` would also take a leading '+'; a deal number is digits only.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DealNumberError::NotANumber { given: given() });
    }
    // With digits only, the one way parsing can fail is overflow.
    let parsed = digits.parse::<u64>();
    if ms_digits.is_some() {
        return match parsed {
            Ok(n) if (1..MS_LIMIT).contains(&n) => Ok(n),
            _ => Err(DealNumberError::MsOutOfRange { given: given() }),
        };
    }
    match parsed {
        Ok(0) => Err(DealNumberError::Zero { given: given() }),
        Ok(n) => Ok(n),
        Err(_) => Err(DealNumberError::TooLarge { given: given() }),
    }
}

/// The shuffled pack for deal `number` (>= 1): 52 card indices, each `suit * 13 + rank`
/// with suits clubs, spades, hearts, diamonds (0..4) and ranks A..K (0..13), in array order AFTER
/// the shuffle (step 2.1 of DEALS.md). The caller deals from the END of the array (the last element
/// is dealt first).
///
/// `number` 0 is not a deal; it does not panic but its result is meaningless.
pub fn shuffled_pack(number: u64) -> [u8; 52] {
    if number < MS_LIMIT {
        let mut pack = microsoft_order_pack();
        let mut rng = MsRng::new(number);
        shuffle(&mut pack, |i| rng.below_or_equal(i));
        pack
    } else {
        let mut pack = fresh_pack();
        let mut rng = Mt19937::from_key(&key_words(number));
        shuffle(&mut pack, |i| rng.below_or_equal(i));
        pack
    }
}

/// The fresh pack: index `suit * 13 + rank` holds that card.
fn fresh_pack() -> [u8; PACK_SIZE] {
    let mut pack = [0u8; PACK_SIZE];
    for (index, card) in (0u8..).zip(pack.iter_mut()) {
        *card = index;
    }
    pack
}

/// The pack in Microsoft order, as our card indices: for each rank A..K, the clubs, diamonds,
/// hearts and spades of that rank. The Microsoft path shuffles this order, not ours, because
/// that is what makes deal numbers match Microsoft FreeCell's (and so PySolFC's).
fn microsoft_order_pack() -> [u8; PACK_SIZE] {
    // Our suit numbers (clubs 0, spades 1, hearts 2, diamonds 3) in Microsoft's suit order.
    const MS_SUITS: [u8; 4] = [0, 3, 2, 1];
    let mut pack = [0u8; PACK_SIZE];
    for (slot, card) in pack.iter_mut().enumerate() {
        // slot < 52, so both quotient and remainder fit in u8.
        let rank = (slot / 4) as u8;
        let suit = MS_SUITS[slot % 4];
        *card = suit * RANKS + rank;
    }
    pack
}

/// Step 2.1: for i from the last index down to 1, swap card i with card `pick(i)` (in `0..=i`).
fn shuffle(pack: &mut [u8; PACK_SIZE], mut pick: impl FnMut(usize) -> usize) {
    for i in (1..PACK_SIZE).rev() {
        let j = pick(i);
        pack.swap(i, j);
    }
}

/// The Microsoft C runtime `rand()` generator.
struct MsRng {
    state: u32,
}

impl MsRng {
    fn new(seed: u64) -> Self {
        // Only called with seeds below 32000; truncating is what the C runtime's `srand` does
        // with a wider seed anyway.
        Self { state: seed as u32 }
    }

    /// The next draw, in `0..=0x7FFF`.
    fn next_draw(&mut self) -> u32 {
        // mod 2^32 is the u32 wrap-around.
        self.state = self.state.wrapping_mul(214_013).wrapping_add(2_531_011);
        (self.state >> 16) & 0x7FFF
    }

    /// A whole number in `0..=i`, by plain modulo (its bias is part of the deal numbers).
    fn below_or_equal(&mut self, i: usize) -> usize {
        self.next_draw() as usize % (i + 1)
    }
}

/// CPython's `random.seed(n)` key for `init_by_array`: n's 32-bit words, least significant first,
/// with no high zero words (so a number that fits in 32 bits gives one word).
fn key_words(number: u64) -> Vec<u32> {
    // Truncating casts pick out the two halves.
    let low = number as u32;
    let high = (number >> 32) as u32;
    if high == 0 {
        vec![low]
    } else {
        vec![low, high]
    }
}

/// Words of MT19937 state.
const MT_N: usize = 624;
/// The middle offset of MT19937's recurrence.
const MT_M: usize = 397;

/// The MT19937 generator (Matsumoto and Nishimura), 32-bit outputs.
struct Mt19937 {
    state: [u32; MT_N],
    /// The next state word to temper and return; `MT_N` means the state must be regenerated first.
    index: usize,
}

impl Mt19937 {
    /// The reference `init_genrand`.
    fn from_seed(seed: u32) -> Self {
        let mut state = [0u32; MT_N];
        state[0] = seed;
        for i in 1..MT_N {
            let prev = state[i - 1];
            // i < 624, so it fits in u32.
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Self { state, index: MT_N }
    }

    /// The reference `init_by_array`, as CPython's `random.seed` uses it.
    fn from_key(key: &[u32]) -> Self {
        let mut mt = Self::from_seed(19_650_218);
        let s = &mut mt.state;
        let mut i = 1;
        let mut j = 0;
        for _ in 0..MT_N.max(key.len()) {
            let prev = s[i - 1];
            // j < key.len(), which is at most 2 here; the reference adds j modulo 2^32.
            s[i] = (s[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= MT_N {
                s[0] = s[MT_N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..MT_N - 1 {
            let prev = s[i - 1];
            // i < 624, so it fits in u32.
            s[i] =
                (s[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= MT_N {
                s[0] = s[MT_N - 1];
                i = 1;
            }
        }
        // The reference sets the top bit so the state is never all zero.
        s[0] = 0x8000_0000;
        mt
    }

    /// Regenerates all 624 state words.
    fn twist(&mut self) {
        const UPPER_MASK: u32 = 0x8000_0000;
        const LOWER_MASK: u32 = 0x7FFF_FFFF;
        const MATRIX_A: u32 = 0x9908_B0DF;
        let s = &mut self.state;
        for k in 0..MT_N {
            let y = (s[k] & UPPER_MASK) | (s[(k + 1) % MT_N] & LOWER_MASK);
            let mag = if y & 1 == 0 { 0 } else { MATRIX_A };
            s[k] = s[(k + MT_M) % MT_N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit output (`genrand_int32`).
    fn next_u32(&mut self) -> u32 {
        if self.index >= MT_N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^= y >> 18;
        y
    }

    /// A fraction in `[0, 1)` with 53 random bits, as CPython's `random()` makes it.
    fn next_fraction(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// A whole number in `0..=i` as `floor(fraction * (i + 1))`, without rejection sampling,
    /// because that is how PySolFC picks and the deal numbers depend on it.
    fn below_or_equal(&mut self, i: usize) -> usize {
        // The fraction is below 1, so the product is below i + 1 and the truncating cast floors it
        // to at most i; the min guards against any rounding surprise all the same.
        let j = (self.next_fraction() * (i + 1) as f64) as usize;
        j.min(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names card index `suit * 13 + rank` as e.g. "TD".
    fn card_name(card: u8) -> String {
        const RANK_CHARS: &[u8] = b"A23456789TJQK";
        const SUIT_CHARS: &[u8] = b"CSHD";
        let rank = RANK_CHARS[usize::from(card % RANKS)];
        let suit = SUIT_CHARS[usize::from(card / RANKS)];
        format!("{}{}", char::from(rank), char::from(suit))
    }

    /// The deal order of deal `number`, first card first, as card names joined by spaces.
    fn deal_order(number: u64) -> String {
        let pack = shuffled_pack(number);
        pack.iter()
            .rev()
            .map(|&card| card_name(card))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn ms_first_draws_for_deal_1() {
        let mut rng = MsRng::new(1);
        let draws: Vec<u32> = (0..5).map(|_| rng.next_draw()).collect();
        assert_eq!(draws, [41, 18467, 6334, 26500, 19169]);
    }

    #[test]
    fn mt_outputs_and_fractions_for_123456() {
        let key = key_words(123_456);
        assert_eq!(key, [123_456]);
        let mut rng = Mt19937::from_key(&key);
        let outputs: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        assert_eq!(outputs, [3460142176, 3624162059, 3410457496, 1244111331]);

        let mut rng = Mt19937::from_key(&key);
        let fractions: Vec<f64> = (0..3).map(|_| rng.next_fraction()).collect();
        // Exact comparison: these are the shortest round-trip decimals of CPython's floats.
        assert_eq!(
            fractions,
            [0.8056271362589, 0.7940590105180981, 0.029425761106168014]
        );
    }

    #[test]
    fn key_words_split_least_significant_first() {
        assert_eq!(key_words(12_345_678_901_234_567), [1567312775, 2874452]);
        assert_eq!(key_words(u64::from(u32::MAX)), [u32::MAX]);
        assert_eq!(key_words(1 << 32), [0, 1]);
    }

    #[test]
    fn deal_1_order() {
        assert_eq!(
            deal_order(1),
            "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS \
             QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
        );
    }

    #[test]
    fn deal_2_order() {
        assert_eq!(
            deal_order(2),
            "QD QC KC 3C 4C 2C KD 5C 4D JD JS 6H QS 6D 2D 9C TD JC 8C 6C 8S 4S 5D QH 7S 9D KS \
             7C 6S 4H AC 8H AH 9S TC 2S 3S TS 9H 2H 3H AD 7H 3D 5H 8D KH 7D AS 5S TH JH"
        );
    }

    #[test]
    fn deal_123456_order() {
        assert_eq!(
            deal_order(123_456),
            "3D 2D 2C 9C AC 6H 4C KC 6C TC 8S 8C 9D TH 2S JS AS 4H AH QH 7H 8H 3S 9H TS JD KD \
             3C 6D QS 6S 4S QC TD KH 5D KS 7D 5H 7S 8D 2H 5S 9S JH JC 3H AD 4D 5C 7C QD"
        );
    }

    #[test]
    fn every_deal_is_a_permutation() {
        // Both paths, the boundary between them, and a number with two key words.
        for number in [
            1,
            2,
            31_999,
            32_000,
            123_456,
            12_345_678_901_234_567,
            u64::MAX,
        ] {
            let mut pack = shuffled_pack(number);
            pack.sort_unstable();
            assert_eq!(pack, fresh_pack(), "deal {number}");
        }
    }

    #[test]
    fn parse_accepts_plain_and_ms_numbers() {
        assert_eq!(parse_deal_number("123"), Ok(123));
        assert_eq!(parse_deal_number("ms123"), Ok(123));
        assert_eq!(parse_deal_number("MS123"), Ok(123));
        assert_eq!(parse_deal_number("ms1"), Ok(1));
        assert_eq!(parse_deal_number("ms31999"), Ok(31_999));
        assert_eq!(parse_deal_number(" 42\n"), Ok(42));
        assert_eq!(parse_deal_number("32000"), Ok(32_000));
        assert_eq!(parse_deal_number("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn parse_rejects_bad_input() {
        let given = |s: &str| s.to_owned();
        assert_eq!(
            parse_deal_number("0"),
            Err(DealNumberError::Zero { given: given("0") })
        );
        assert_eq!(
            parse_deal_number("ms0"),
            Err(DealNumberError::MsOutOfRange {
                given: given("ms0")
            })
        );
        assert_eq!(
            parse_deal_number("ms32000"),
            Err(DealNumberError::MsOutOfRange {
                given: given("ms32000")
            })
        );
        assert_eq!(
            parse_deal_number("ms99999999999999999999999"),
            Err(DealNumberError::MsOutOfRange {
                given: given("ms99999999999999999999999")
            })
        );
        assert_eq!(
            parse_deal_number("18446744073709551616"),
            Err(DealNumberError::TooLarge {
                given: given("18446744073709551616")
            })
        );
        assert_eq!(parse_deal_number(""), Err(DealNumberError::Empty));
        assert_eq!(parse_deal_number("  "), Err(DealNumberError::Empty));
        for bad in ["abc", "-3", "+3", "ms", "ms-3", "1.5", "12a", "é"] {
            assert_eq!(
                parse_deal_number(bad),
                Err(DealNumberError::NotANumber { given: given(bad) }),
                "input {bad:?}"
            );
        }
    }

    #[test]
    fn error_messages_say_what_was_given_and_what_is_expected() {
        let message = |s: &str| match parse_deal_number(s) {
            Ok(n) => panic!("{s:?} parsed as {n}"),
            Err(e) => e.to_string(),
        };
        assert!(message("abc").contains("\"abc\""));
        assert!(message("abc").contains("ms1 to ms31999"));
        assert!(message("ms32000").contains("\"ms32000\""));
        assert!(message("ms32000").contains("ms31999"));
        assert!(message("0").contains("start at 1"));
    }
}
