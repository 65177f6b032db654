//! Mill (Nine Men's Morris) as printed in the "Тройка" box, with the box's three variants.
//!
//! The rules are those of `docs/spec/mill.md`. Each side's tokens are a 24-bit mask, the
//! lines are masks too, and the paid lines (a line pays its side once per game) are a mask
//! over line numbers, so move generation is a handful of bit operations per move.
//!
//! ```
//! use game::Game;
//! use mill::{Mill, Variant};
//!
//! let mut g = Mill::new(Variant::Troika, 0);
//! g.play_text("d2").unwrap();
//! assert_eq!(g.position(), ".../.../.../....../.../.a./... b 8 9 0000 0000 1");
//! ```

mod board;
mod movegen;
mod notation;
mod zobrist;

use board::{FULL, NAMES, tables};
use game::{Error, GameInfo, Names, Outcome, Seat, VariantInfo};

/// The variants of the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The classic game: place nine, then step; fly with three.
    Troika,
    /// Tokens slide along a line over one or two empty points, and along the corner diagonals.
    TroikaLong,
    /// A side with tokens in hand may place one or step a token already on the board.
    TroikaFree,
    /// The corner diagonals are lines too, and tokens may jump over a line's middle point.
    TroikaDiagonal,
}

impl game::Variant for Variant {
    const ALL: &'static [Self] = &[
        Variant::Troika,
        Variant::TroikaLong,
        Variant::TroikaFree,
        Variant::TroikaDiagonal,
    ];

    fn id(self) -> &'static str {
        match self {
            Variant::Troika => "troika",
            Variant::TroikaLong => "troika-long",
            Variant::TroikaFree => "troika-free",
            Variant::TroikaDiagonal => "troika-diagonal",
        }
    }
}

/// One of the 24 points of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point(u8);

impl Point {
    /// The point called `name` (`d2`), if the board has one.
    pub fn from_name(name: &str) -> Option<Point> {
        board::point_from_name(name).map(Point)
    }

    /// The point's name in notation (`d2`).
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The point's bit in the masks of [`Move::removal_mask`]: points are numbered in the
    /// notation's order (column letter, then row), `a1` = 0 to `g7` = 23.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Marks a placement in [`Move`]'s `from`.
const NONE: u8 = u8::MAX;

/// A move: a placement (`d2`) or a move of a token (`a1-a4`), with the opponent tokens it
/// removes (`xb6`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    /// The removed opponent tokens, one bit per point.
    remove: u32,
}

impl Move {
    /// Placing a token from the hand on `to`.
    pub fn place(to: Point) -> Move {
        Move {
            from: NONE,
            to: to.0,
            remove: 0,
        }
    }

    /// Moving the token on `from` to `to` (a step, slide, jump or flight).
    pub fn shift(from: Point, to: Point) -> Move {
        Move {
            from: from.0,
            to: to.0,
            remove: 0,
        }
    }

    /// The same move, also removing the opponent token on `point`.
    pub fn removing(self, point: Point) -> Move {
        Move {
            remove: self.remove | 1 << point.0,
            ..self
        }
    }

    /// Where the token comes from, or `None` for a placement.
    pub fn from(self) -> Option<Point> {
        (self.from != NONE).then_some(Point(self.from))
    }

    pub fn to(self) -> Point {
        Point(self.to)
    }

    /// The removed points as a mask over [`Point::index`].
    pub fn removal_mask(self) -> u32 {
        self.remove
    }

    /// The removed points in ascending order.
    pub fn removed(self) -> impl Iterator<Item = Point> {
        bits(self.remove).map(|p| Point(p as u8))
    }
}

/// The bits of a mask, lowest first.
#[inline(always)]
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(p)
        }
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Ongoing,
    Won(u8),
    Drawn,
}

/// What [`Mill::make`](game::Game::make) saves for the matching unmake.
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    key: u64,
    paid: u32,
    quiet: u8,
    reversible: u8,
    status: Status,
}

/// A game of mill: the position, the state of play and the repetition history.
#[derive(Debug, Clone)]
pub struct Mill {
    variant: Variant,
    /// Tokens on the board, by side (0 = `a`, 1 = `b`).
    board: [u32; 2],
    hand: [u8; 2],
    /// Lines each side has been paid for, one bit per line number.
    paid: [u32; 2],
    /// The side to move (also recorded once the game is over, for the notation).
    turn: u8,
    /// Moves since the last removal.
    quiet: u8,
    /// Plies since the last placement, removal or newly paid line: no position from before
    /// such a move can come back, so the repetition scan stops there.
    reversible: u8,
    status: Status,
    /// Zobrist key of board, side to move, hands and paid lines (the repetition identity).
    key: u64,
    /// Keys of every position since the start or the parsed position, current one last.
    history: Vec<u64>,
}

/// Tokens each side starts with.
const TOKENS: u8 = 9;
/// Moves without a removal that draw the game.
const QUIET_LIMIT: u8 = 100;

impl Mill {
    /// Tokens `side` has left, in hand and on the board together.
    fn left(&self, side: usize) -> u32 {
        self.hand[side] as u32 + self.board[side].count_ones()
    }

    fn empty(&self) -> u32 {
        !(self.board[0] | self.board[1]) & FULL
    }

    /// The key of the current position computed from scratch.
    fn compute_key(&self) -> u64 {
        let mut key = 0;
        for side in 0..2 {
            key ^= zobrist::pieces(side, self.board[side]);
            key ^= zobrist::hand(side, self.hand[side] as usize);
            key ^= zobrist::paid_lines(side, self.paid[side]);
        }
        if self.turn == 1 {
            key ^= zobrist::side_b();
        }
        key
    }

    /// The state of play after a move (or of a parsed position), applying the spec's checks in
    /// its order. The side that just moved is the one not to move.
    fn evaluate(&self, check_repetition: bool) -> Status {
        let opp = self.turn as usize;
        let mover = 1 - opp;
        let opp_left = self.left(opp);
        if opp_left <= 2 {
            return Status::Won(mover as u8);
        }
        if opp_left == 3 && self.left(mover) == 3 {
            return Status::Drawn;
        }
        if self.hand[opp] == 0 && !self.can_move(opp) {
            return Status::Won(mover as u8);
        }
        if check_repetition && self.third_occurrence() {
            return Status::Drawn;
        }
        if self.quiet >= QUIET_LIMIT {
            return Status::Drawn;
        }
        Status::Ongoing
    }

    /// Whether the current position has occurred twice before with the same side to move.
    fn third_occurrence(&self) -> bool {
        let n = self.history.len();
        let reach = (self.reversible as usize).min(n - 1);
        let mut seen = 0;
        let mut back = 2;
        while back <= reach {
            if self.history[n - 1 - back] == self.key {
                seen += 1;
                if seen == 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    fn outcome_of(status: Status) -> Option<Outcome> {
        match status {
            Status::Ongoing => None,
            Status::Drawn => Some(Outcome::Draw),
            Status::Won(side) => Seat::from_index(side as usize).map(Outcome::Win),
        }
    }

    /// The opponent tokens that `mv` would have to remove by the rules: the number of newly
    /// completed lines, and how many tokens that comes to.
    fn removals_due(&self, from: u8, to: u8) -> (u32, u32) {
        let t = tables(self.variant);
        let me = self.turn as usize;
        let mut mine = self.board[me];
        if from != NONE {
            mine &= !(1 << from);
        }
        mine |= 1 << to;
        let lines = t.completed(to as usize, mine, self.paid[me]).count_ones();
        (lines, lines.min(self.board[1 - me].count_ones()))
    }
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        id: "troika",
        names: Names {
            ru: "Классика",
            uk: "Класика",
            en: "Classic",
        },
    },
    VariantInfo {
        id: "troika-long",
        names: Names {
            ru: "Дальний ход",
            uk: "Далекий хід",
            en: "Long moves",
        },
    },
    VariantInfo {
        id: "troika-free",
        names: Names {
            ru: "Свободный ход",
            uk: "Вільний хід",
            en: "Free moves",
        },
    },
    VariantInfo {
        id: "troika-diagonal",
        names: Names {
            ru: "Диагонали",
            uk: "Діагоналі",
            en: "Diagonals",
        },
    },
];

impl game::Game for Mill {
    type Variant = Variant;
    type Move = Move;
    type Undo = Undo;

    const INFO: GameInfo = GameInfo {
        id: "mill",
        names: Names {
            ru: "Мельница (Тройка)",
            uk: "Млин (Трійка)",
            en: "Mill (Troika)",
        },
        summary: Names {
            ru: "Классическая мельница на 24 точках: выставляйте и передвигайте девять фишек, \
                 стройте из них ряды по три и снимайте фишки соперника.",
            uk: "Класичний млин на 24 точках: виставляйте й пересувайте дев'ять фішок, \
                 шикуйте їх у ряди по три та знімайте фішки суперника.",
            en: "The classic mill game on 24 points: place and move nine tokens, line them up \
                 three in a row and take the opponent's tokens.",
        },
        seats: 2,
        has_dice: false,
        variants: VARIANTS,
    };

    fn new(variant: Variant, _seed: u64) -> Self {
        let mut g = Mill {
            variant,
            board: [0; 2],
            hand: [TOKENS; 2],
            paid: [0; 2],
            turn: 0,
            quiet: 0,
            reversible: 0,
            status: Status::Ongoing,
            key: 0,
            history: Vec::with_capacity(128),
        };
        g.key = g.compute_key();
        g.history.push(g.key);
        g
    }

    fn from_position(variant: Variant, position: &str, _seed: u64) -> Result<Self, Error> {
        notation::parse_position(variant, position)
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn position(&self) -> String {
        notation::format_position(self)
    }

    fn to_move(&self) -> Option<Seat> {
        match self.status {
            Status::Ongoing => Seat::from_index(self.turn as usize),
            _ => None,
        }
    }

    fn turn_label(&self) -> &'static str {
        if self.turn == 0 { "a" } else { "b" }
    }

    fn seat_label(&self, seat: Seat) -> &'static str {
        seat.letter()
    }

    fn outcome(&self) -> Option<Outcome> {
        Self::outcome_of(self.status)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status == Status::Ongoing {
            self.generate(out);
        }
    }

    fn count_legal(&self) -> usize {
        if self.status == Status::Ongoing {
            self.count()
        } else {
            0
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        notation::parse_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn make(&mut self, mv: Move) -> Undo {
        let me = self.turn as usize;
        let opp = 1 - me;
        let undo = Undo {
            key: self.key,
            paid: self.paid[me],
            quiet: self.quiet,
            reversible: self.reversible,
            status: self.status,
        };
        let mut key = self.key ^ zobrist::side_b();
        let mut irreversible = false;
        if mv.from == NONE {
            let h = self.hand[me] as usize;
            key ^= zobrist::hand(me, h) ^ zobrist::hand(me, h - 1);
            self.hand[me] -= 1;
            irreversible = true;
        } else {
            self.board[me] &= !(1 << mv.from);
            key ^= zobrist::piece(me, mv.from as usize);
        }
        self.board[me] |= 1 << mv.to;
        key ^= zobrist::piece(me, mv.to as usize);

        let t = tables(self.variant);
        let newly = t.completed(mv.to as usize, self.board[me], self.paid[me]);
        if newly != 0 {
            self.paid[me] |= newly;
            key ^= zobrist::paid_lines(me, newly);
            irreversible = true;
        }
        if mv.remove != 0 {
            self.board[opp] &= !mv.remove;
            key ^= zobrist::pieces(opp, mv.remove);
            self.quiet = 0;
            irreversible = true;
        } else {
            self.quiet += 1;
        }
        self.reversible = if irreversible { 0 } else { self.reversible + 1 };
        self.turn = opp as u8;
        self.key = key;
        self.history.push(key);
        self.status = self.evaluate(true);
        undo
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        let opp = self.turn as usize;
        let me = 1 - opp;
        self.board[me] &= !(1 << mv.to);
        if mv.from == NONE {
            self.hand[me] += 1;
        } else {
            self.board[me] |= 1 << mv.from;
        }
        self.board[opp] |= mv.remove;
        self.paid[me] = undo.paid;
        self.turn = me as u8;
        self.key = undo.key;
        self.quiet = undo.quiet;
        self.reversible = undo.reversible;
        self.status = undo.status;
        self.history.pop();
    }

    fn hash_key(&self) -> u64 {
        self.key ^ zobrist::quiet(self.quiet as usize)
    }

    fn check_move(&self, mv: Move) -> Result<(), Error> {
        if self.status != Status::Ongoing {
            return Err(Error::GameOver);
        }
        self.explain(mv)
            .map_err(|reason| Error::illegal(notation::format_move(mv), reason))
    }
}
