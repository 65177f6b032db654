//! White Rabbit («Білий кролик», a solo dice puzzle by Dmytro Polovynka): the rules engine.
//!
//! Six dice lie on the table, five are in the hand. Each turn the hand is rolled, then the
//! player trades hand dice for table dice of another colour whose value is one off, and wins
//! the moment all six table dice show the same value while the white die is in the hand. The
//! green counter (6 at the start, one less per turn) is the score; ending a turn at 1 loses.
//!
//! The rules are `docs/spec/white-rabbit.md`. Dice come only from the [`GameRng`] stored in
//! the state, drawn in a fixed order so that a game replays from its seed and its actions:
//! - setup: `k1 k2 k3 r1 r2 r3` (the table, slot by slot), then `k4 k5 r4 r5 w` (the hand);
//! - a turn's roll (after `end`): every die in the hand in the order `k1`…`k5`, `r1`…`r5`, `w`;
//! - `reroll`: one draw for the rerolled die.
//!
//! The generator state is not part of the position notation: a position says what the player
//! sees, not the future rolls.

mod dice;
mod notation;
mod zobrist;

pub use dice::{Colour, Die};

use game::{Error, Game, GameInfo, GameRng, Names, Outcome, Seat, VariantInfo};
use zobrist::HAND;

/// The green counter at the start of a game.
pub const START_GREEN: u8 = 6;

/// The rules variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 6 and 1 are neighbours.
    Classic,
    /// 6 and 1 are not neighbours: the harder game the source suggests.
    NoWrap,
}

impl Variant {
    /// Whether two die values differ by exactly one in this variant.
    #[inline]
    pub const fn neighbours(self, a: u8, b: u8) -> bool {
        // Bit b of row a is set when a and b are neighbours (values 1..=6).
        const WRAP: [u8; 7] = [
            0, 0b100_0100, 0b000_1010, 0b001_0100, 0b010_1000, 0b101_0000, 0b010_0010,
        ];
        const NO_WRAP: [u8; 7] = [
            0, 0b000_0100, 0b000_1010, 0b001_0100, 0b010_1000, 0b101_0000, 0b010_0000,
        ];
        if a > 6 || b > 6 {
            return false;
        }
        let row = match self {
            Variant::Classic => WRAP[a as usize],
            Variant::NoWrap => NO_WRAP[a as usize],
        };
        row & (1 << b) != 0
    }
}

impl game::Variant for Variant {
    const ALL: &'static [Self] = &[Variant::Classic, Variant::NoWrap];

    fn id(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::NoWrap => "no-wrap",
        }
    }
}

/// An action of the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Trade the hand die `hand` for the table die `table` (written `hand~table`).
    Swap { hand: Die, table: Die },
    /// Roll again the die the last swap brought into the hand.
    Reroll,
    /// End the turn.
    End,
}

/// What [`WhiteRabbit::make`](Game::make) saves: the whole state, generator included (it is
/// small, and a copy is the simplest exact restore).
#[derive(Debug, Clone)]
pub struct Undo(WhiteRabbit);

/// Table slots grouped for move generation.
struct TableMasks {
    by_value: [u8; 8],
    by_colour: [u8; 3],
}

/// A game of White Rabbit in progress (or finished).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhiteRabbit {
    variant: Variant,
    /// The die in each table slot.
    table: [Die; 6],
    /// The value each die shows, by die index.
    value: [u8; Die::COUNT],
    /// Where each die lies: its table slot, or [`HAND`].
    place: [u8; Die::COUNT],
    /// The dice in the hand, one bit per die index.
    hand: u16,
    /// 1..=6 while playing, 0 once lost.
    green: u8,
    /// The swap that may not be played next, hand die first.
    ban: Option<(Die, Die)>,
    /// The die that may be rerolled now.
    reroll: Option<Die>,
    hash: u64,
    rng: GameRng,
}

impl WhiteRabbit {
    /// The dice on the table, slot by slot, with their values.
    pub fn table(&self) -> [(Die, u8); 6] {
        self.table.map(|d| (d, self.value[d.index()]))
    }

    /// The dice in the hand (always five) in the order `k1`…`k5`, `r1`…`r5`, `w`, with their
    /// values.
    pub fn hand(&self) -> [(Die, u8); 5] {
        let mut out = [(Die::W, 0); 5];
        let mut mask = self.hand;
        for slot in &mut out {
            let die = Die::ALL[mask.trailing_zeros() as usize];
            *slot = (die, self.value[die.index()]);
            mask &= mask - 1;
        }
        out
    }

    /// The value a die shows.
    pub fn value(&self, die: Die) -> u8 {
        self.value[die.index()]
    }

    /// The table slot (0..=5) of a die, or `None` when it is in the hand.
    pub fn slot_of(&self, die: Die) -> Option<usize> {
        match self.place[die.index()] {
            HAND => None,
            slot => Some(slot as usize),
        }
    }

    pub fn in_hand(&self, die: Die) -> bool {
        self.hand & die.bit() != 0
    }

    /// The green counter: the score if the game were won now (0 once lost).
    pub fn green(&self) -> u8 {
        self.green
    }

    /// The swap that may not be played next, as `(hand die, table die)`.
    pub fn banned_swap(&self) -> Option<(Die, Die)> {
        self.ban
    }

    /// The die that `reroll` would roll now.
    pub fn rerollable(&self) -> Option<Die> {
        self.reroll
    }

    /// All six table dice show the same value and the white die is in the hand.
    fn table_won(&self) -> bool {
        let v = self.value[self.table[0].index()];
        self.in_hand(Die::W) && self.table.iter().all(|d| self.value[d.index()] == v)
    }

    /// Builds a state from its parts (already validated) and computes its hash.
    fn from_parts(
        variant: Variant,
        table: [Die; 6],
        value: [u8; Die::COUNT],
        green: u8,
        ban: Option<(Die, Die)>,
        reroll: Option<Die>,
        rng: GameRng,
    ) -> Self {
        let mut place = [HAND; Die::COUNT];
        let mut hand = (1u16 << Die::COUNT) - 1;
        for (slot, d) in table.iter().enumerate() {
            place[d.index()] = slot as u8;
            hand &= !d.bit();
        }
        let mut game = WhiteRabbit {
            variant,
            table,
            value,
            place,
            hand,
            green,
            ban,
            reroll,
            hash: 0,
            rng,
        };
        game.hash = game.compute_hash();
        game
    }

    fn compute_hash(&self) -> u64 {
        let mut h =
            zobrist::green(self.green) ^ zobrist::ban(self.ban) ^ zobrist::reroll(self.reroll);
        for d in Die::ALL {
            h ^= zobrist::die(d, self.place[d.index()], self.value[d.index()]);
        }
        h
    }

    /// Whether swapping `hand` for `table` is allowed, or why not.
    fn swap_problem(&self, hand: Die, table: Die) -> Option<String> {
        if !self.in_hand(hand) {
            return Some(format!("{hand} is not in the hand"));
        }
        if self.in_hand(table) {
            return Some(format!("{table} is not on the table"));
        }
        if hand.colour() == table.colour() {
            return Some(format!("{hand} and {table} are the same colour"));
        }
        let (a, b) = (self.value[hand.index()], self.value[table.index()]);
        if !self.variant.neighbours(a, b) {
            let note = if a.abs_diff(b) == 5 {
                " (6 and 1 are not neighbours in no-wrap)"
            } else {
                ""
            };
            return Some(format!(
                "{hand} shows {a} and {table} shows {b}: the values must differ by one{note}"
            ));
        }
        if self.ban == Some((hand, table)) {
            return Some("the same two dice may not be swapped back at once".to_string());
        }
        None
    }

    /// The table slots by value (`by_value[v]`, bit `s` for slot `s`; 0 and 7 stay empty so
    /// that `v ± 1` needs no bounds check) and by colour.
    #[inline]
    fn table_masks(&self) -> TableMasks {
        let mut m = TableMasks {
            by_value: [0; 8],
            by_colour: [0; 3],
        };
        for (slot, d) in self.table.iter().enumerate() {
            m.by_value[self.value[d.index()] as usize] |= 1 << slot;
            m.by_colour[d.colour() as usize] |= 1 << slot;
        }
        m
    }

    /// The table slots that `hand` may be swapped with now.
    #[inline]
    fn swap_slots(&self, hand: Die, m: &TableMasks) -> u8 {
        let v = self.value[hand.index()] as usize;
        let mut slots = m.by_value[v - 1] | m.by_value[v + 1];
        if self.variant == Variant::Classic {
            match v {
                1 => slots |= m.by_value[6],
                6 => slots |= m.by_value[1],
                _ => {}
            }
        }
        slots &= !m.by_colour[hand.colour() as usize];
        if let Some((h, t)) = self.ban
            && h == hand
        {
            slots &= !(1 << self.place[t.index()]);
        }
        slots
    }

    /// Sets a die's value, keeping the hash.
    #[inline]
    fn set_value(&mut self, die: Die, v: u8) {
        let i = die.index();
        let place = self.place[i];
        self.hash ^= zobrist::die(die, place, self.value[i]) ^ zobrist::die(die, place, v);
        self.value[i] = v;
    }

    #[inline]
    fn set_ban(&mut self, ban: Option<(Die, Die)>, reroll: Option<Die>) {
        self.hash ^= zobrist::ban(self.ban) ^ zobrist::ban(ban);
        self.hash ^= zobrist::reroll(self.reroll) ^ zobrist::reroll(reroll);
        self.ban = ban;
        self.reroll = reroll;
    }

    /// Rolls every die in the hand, in die order (the documented draw order of a turn).
    fn roll_hand(&mut self) {
        let mut mask = self.hand;
        while mask != 0 {
            let die = Die::ALL[mask.trailing_zeros() as usize];
            let v = self.rng.die();
            self.set_value(die, v);
            mask &= mask - 1;
        }
    }

    fn do_swap(&mut self, hand: Die, table: Die) {
        let (h, t) = (hand.index(), table.index());
        let slot = self.place[t];
        self.hash ^=
            zobrist::die(hand, HAND, self.value[h]) ^ zobrist::die(hand, slot, self.value[h]);
        self.hash ^=
            zobrist::die(table, slot, self.value[t]) ^ zobrist::die(table, HAND, self.value[t]);
        self.table[slot as usize] = hand;
        self.place[h] = slot;
        self.place[t] = HAND;
        self.hand ^= hand.bit() | table.bit();
        // The reverse trade is now banned, and the die just taken may be rerolled.
        self.set_ban(Some((table, hand)), Some(table));
    }

    fn do_reroll(&mut self) {
        let Some(die) = self.reroll else { return };
        let old = self.value[die.index()];
        let v = self.rng.die();
        self.set_value(die, v);
        // The source lifts the ban only when the reroll shows the value the die had before.
        let ban = if v == old { None } else { self.ban };
        self.set_ban(ban, None);
    }

    fn do_end(&mut self) {
        self.set_ban(None, None);
        self.hash ^= zobrist::green(self.green) ^ zobrist::green(self.green - 1);
        self.green -= 1;
        if self.green > 0 {
            self.roll_hand();
        }
    }
}

const INFO: GameInfo = GameInfo {
    id: "white-rabbit",
    names: Names {
        ru: "Белый кролик",
        uk: "Білий кролик",
        en: "White Rabbit",
    },
    summary: Names {
        ru: "Головоломка с кубиками для одного: меняйте кубики между рукой и столом, пока все шесть кубиков на столе не покажут одно значение, а белый кубик остаётся у вас в руке.",
        uk: "Головоломка з кубиками для одного гравця: міняйте кубики між рукою і столом, доки всі шість кубиків на столі не покажуть однакове значення, а білий кубик лишається у вас на руках.",
        en: "A solo dice puzzle: trade dice between your hand and the table until all six table dice show the same value while the white die stays in your hand.",
    },
    seats: 1,
    has_dice: true,
    variants: &[
        VariantInfo {
            id: "classic",
            names: Names {
                ru: "Классика",
                uk: "Класика",
                en: "Classic",
            },
        },
        VariantInfo {
            id: "no-wrap",
            names: Names {
                ru: "Без перехода 6–1",
                uk: "Без переходу 6–1",
                en: "No 6–1 wrap",
            },
        },
    ],
};

impl Game for WhiteRabbit {
    type Variant = Variant;
    type Move = Move;
    type Undo = Undo;

    const INFO: GameInfo = INFO;

    fn new(variant: Variant, seed: u64) -> Self {
        let mut rng = GameRng::seeded(seed);
        let mut value = [0; Die::COUNT];
        let table = [Die::K1, Die::K2, Die::K3, Die::R1, Die::R2, Die::R3];
        // The draw order is part of the replay contract: table slot by slot, then the hand.
        for d in table
            .into_iter()
            .chain([Die::K4, Die::K5, Die::R4, Die::R5, Die::W])
        {
            value[d.index()] = rng.die();
        }
        WhiteRabbit::from_parts(variant, table, value, START_GREEN, None, None, rng)
    }

    fn from_position(variant: Variant, position: &str, seed: u64) -> Result<Self, Error> {
        let p = notation::parse_position(variant, position)?;
        Ok(WhiteRabbit::from_parts(
            variant,
            p.table,
            p.value,
            p.green,
            p.ban,
            p.reroll,
            GameRng::seeded(seed),
        ))
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn position(&self) -> String {
        notation::format_position(self)
    }

    fn to_move(&self) -> Option<Seat> {
        if self.outcome().is_some() {
            None
        } else {
            Some(Seat::A)
        }
    }

    fn turn_label(&self) -> &'static str {
        ""
    }

    fn seat_label(&self, _seat: Seat) -> &'static str {
        "a"
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.green == 0 {
            Some(Outcome::SoloLost)
        } else if self.table_won() {
            Some(Outcome::SoloWon {
                score: self.green as u32,
            })
        } else {
            None
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        let masks = self.table_masks();
        let mut hands = self.hand;
        while hands != 0 {
            let hand = Die::ALL[hands.trailing_zeros() as usize];
            hands &= hands - 1;
            let mut slots = self.swap_slots(hand, &masks);
            while slots != 0 {
                let table = self.table[slots.trailing_zeros() as usize];
                slots &= slots - 1;
                out.push(Move::Swap { hand, table });
            }
        }
        if self.reroll.is_some() {
            out.push(Move::Reroll);
        }
        out.push(Move::End);
    }

    fn count_legal(&self) -> usize {
        if self.outcome().is_some() {
            return 0;
        }
        let masks = self.table_masks();
        let mut n = 1 + self.reroll.is_some() as usize;
        let mut hands = self.hand;
        while hands != 0 {
            let hand = Die::ALL[hands.trailing_zeros() as usize];
            hands &= hands - 1;
            n += self.swap_slots(hand, &masks).count_ones() as usize;
        }
        n
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        notation::parse_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo(self.clone());
        match mv {
            Move::Swap { hand, table } => self.do_swap(hand, table),
            Move::Reroll => self.do_reroll(),
            Move::End => self.do_end(),
        }
        debug_assert_eq!(self.hash, self.compute_hash());
        undo
    }

    fn unmake(&mut self, _mv: Move, undo: Undo) {
        *self = undo.0;
    }

    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn check_move(&self, mv: Move) -> Result<(), Error> {
        if self.outcome().is_some() {
            return Err(Error::GameOver);
        }
        match mv {
            Move::Swap { hand, table } => match self.swap_problem(hand, table) {
                Some(reason) => Err(Error::illegal(notation::format_move(mv), reason)),
                None => Ok(()),
            },
            Move::Reroll if self.reroll.is_none() => Err(Error::illegal(
                "reroll",
                "only the die a swap just brought into the hand may be rerolled, once, right after that swap",
            )),
            Move::Reroll | Move::End => Ok(()),
        }
    }
}
