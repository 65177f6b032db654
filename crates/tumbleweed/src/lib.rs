//! Tumbleweed (Mike Zapała, 2020): a territory game on a hexagonal board where each new stack
//! is as tall as the number of friendly stacks its cell can see.
//!
//! The rules are those of `docs/spec/tumbleweed.md`. The engine keeps, for every cell and
//! both colours, how many stacks of that colour the cell sees, and updates these counts
//! incrementally along the six lines through a changed cell, so that legal moves are a single
//! scan comparing sight with the height already there.
//!
//! Modules: `board` (the padded grid, [`Cell`], slot encoding, Zobrist keys), `notation`
//! (moves and positions as text); the rules and the incremental sight counts live here.
//!
//! Seats: [`Seat::A`] is side `a`, the host who sets up; [`Seat::B`] is side `b`, who picks a
//! colour. The position notation does not say who holds which colour, so a position read by
//! [`Game::from_position`] after the choice assumes **side `b` chose red** (red is
//! [`Seat::B`], white is [`Seat::A`]); [`Tumbleweed::set_red_seat`] overrides that when the
//! caller knows better.

mod board;
mod notation;

pub use board::Cell;
pub use game::{Error, Game, GameInfo, Names, Outcome, Seat, VariantInfo};

use board::{DIRS, EMPTY, GRID, KEYS, OFF, RED, STRIDE, WHITE, height, owner};

/// The board sizes of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 8 cells a side, 169 cells: the standard game.
    Hex8,
    /// 11 cells a side, 331 cells.
    Hex11,
    /// 6 cells a side, 91 cells: for beginners.
    Hex6,
}

impl Variant {
    /// The number of cells on a side of the hexagon.
    pub const fn side(self) -> usize {
        match self {
            Variant::Hex8 => 8,
            Variant::Hex11 => 11,
            Variant::Hex6 => 6,
        }
    }

    /// The number of cells of the board.
    pub const fn cells(self) -> usize {
        let n = self.side();
        3 * n * (n - 1) + 1
    }

    /// The centre cell, home of the neutral stack.
    pub const fn centre(self) -> Cell {
        let n = self.side() as u8;
        match Cell::new(n - 1, n) {
            Some(c) => c,
            None => unreachable!(),
        }
    }

    /// The grid slots holding this board's rows (sentinel columns included): the range the
    /// move scan covers.
    const fn scan_range(self) -> (usize, usize) {
        (STRIDE, STRIDE * (2 * self.side()))
    }

    fn start_board(self) -> &'static [u8; GRID] {
        static HEX8: [u8; GRID] = board::start_board(8);
        static HEX11: [u8; GRID] = board::start_board(11);
        static HEX6: [u8; GRID] = board::start_board(6);
        match self {
            Variant::Hex8 => &HEX8,
            Variant::Hex11 => &HEX11,
            Variant::Hex6 => &HEX6,
        }
    }
}

impl game::Variant for Variant {
    const ALL: &'static [Self] = &[Variant::Hex8, Variant::Hex11, Variant::Hex6];

    fn id(self) -> &'static str {
        match self {
            Variant::Hex8 => "hex8",
            Variant::Hex11 => "hex11",
            Variant::Hex6 => "hex6",
        }
    }
}

/// A player's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    White,
}

impl Colour {
    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::White,
            Colour::White => Colour::Red,
        }
    }

    /// The position notation's letter: `r` or `w`.
    pub const fn letter(self) -> &'static str {
        match self {
            Colour::Red => "r",
            Colour::White => "w",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }

    const fn slot(self) -> u8 {
        match self {
            Colour::Red => RED,
            Colour::White => WHITE,
        }
    }
}

/// Who a stack belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    Red,
    White,
    Neutral,
}

/// A stack on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stack {
    pub owner: Owner,
    pub height: u8,
}

/// Where the game stands: the phase field of the position notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Side `a` places one red and one white checker.
    Setup,
    /// Side `b` picks a colour.
    Choose,
    /// This colour is to move (or would be, once the game has ended by two passes).
    Play(Colour),
}

impl Phase {
    const fn key_index(self) -> usize {
        match self {
            Phase::Setup => 0,
            Phase::Choose => 1,
            Phase::Play(Colour::Red) => 2,
            Phase::Play(Colour::White) => 3,
        }
    }

    const fn label(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Choose => "choose",
            Phase::Play(Colour::Red) => "r",
            Phase::Play(Colour::White) => "w",
        }
    }
}

/// A move: `e4,f6`, `red`/`white`, `e5` or `pass`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Side `a` places a red checker and a white checker.
    Setup {
        red: Cell,
        white: Cell,
    },
    /// Side `b` takes this colour; side `a` gets the other.
    Choose(Colour),
    /// A stack of the mover's colour, as tall as the mover's sight from the cell.
    Place(Cell),
    Pass,
}

/// What [`Game::unmake`] needs to restore the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    slot: u8,
    passes: u8,
    red_seat: Seat,
}

/// A game of Tumbleweed.
#[derive(Clone)]
pub struct Tumbleweed {
    variant: Variant,
    board: [u8; GRID],
    /// `sight[colour][slot]`: how many stacks of that colour the cell sees (0–6). Always 0 on
    /// sentinels.
    sight: [[u8; GRID]; 2],
    phase: Phase,
    /// Passes made in a row: 0 or 1 while the game goes on, 2 once it has ended.
    passes: u8,
    /// The seat holding red; meaningful only once the colours are chosen.
    red_seat: Seat,
    hash: u64,
}

impl std::fmt::Debug for Tumbleweed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tumbleweed")
            .field("variant", &self.variant)
            .field("position", &self.position())
            .field("red_seat", &self.red_seat)
            .finish()
    }
}

impl Tumbleweed {
    /// Builds a state from a validated board and fields; computes sight and hash from scratch.
    fn assemble(variant: Variant, board: [u8; GRID], phase: Phase, passes: u8) -> Tumbleweed {
        let mut game = Tumbleweed {
            variant,
            board,
            sight: [[0; GRID]; 2],
            phase,
            passes,
            red_seat: Seat::B,
            hash: 0,
        };
        game.sight = game.sight_from_scratch();
        game.hash = game.hash_from_scratch();
        game
    }

    fn sight_from_scratch(&self) -> [[u8; GRID]; 2] {
        let mut sight = [[0u8; GRID]; 2];
        for c in 0..GRID {
            let o = owner(self.board[c]);
            if o != 1 && o != 2 {
                continue;
            }
            // The cells that see this stack are those on its six rays, up to the first stack.
            for &step in &DIRS {
                let mut x = c.wrapping_add(step);
                loop {
                    let v = self.board[x];
                    if v == OFF {
                        break;
                    }
                    sight[o as usize - 1][x] += 1;
                    if v != EMPTY {
                        break;
                    }
                    x = x.wrapping_add(step);
                }
            }
        }
        sight
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS.phase[self.phase.key_index()] ^ KEYS.passes[self.passes as usize];
        for (c, &v) in self.board.iter().enumerate() {
            if v != OFF {
                h ^= KEYS.slots[c][v as usize & 31];
            }
        }
        h
    }

    /// Puts `new` in slot `c` (a stack, or empty when undoing) and updates sight and hash.
    ///
    /// Only cells on the six rays from `c`, up to and including the first stack, can change
    /// what they see: they now see `c`'s stack (or, when `c` empties, whatever lies beyond
    /// `c` on the opposite ray).
    fn set_slot(&mut self, c: usize, new: u8) {
        let old = self.board[c];
        self.board[c] = new;
        self.hash ^= KEYS.slots[c][old as usize & 31] ^ KEYS.slots[c][new as usize & 31];
        let (old_o, new_o) = (owner(old), owner(new));
        if old_o == new_o {
            // A reinforcement: the same colour is seen from everywhere.
            return;
        }
        for k in 0..3 {
            let fwd = DIRS[k];
            let back = DIRS[k + 3];
            let (f_end, b_end) = if old_o == 0 || new_o == 0 {
                (self.first_stack(c, fwd), self.first_stack(c, back))
            } else {
                (0, 0) // not needed: some stack sits on `c` before and after
            };
            // Cells ahead look back through `c` towards the stack behind it, and vice versa.
            let from = if old_o == 0 {
                owner(self.board[b_end])
            } else {
                old_o
            };
            let to = if new_o == 0 {
                owner(self.board[b_end])
            } else {
                new_o
            };
            self.shift_ray(c, fwd, from, to);
            let from = if old_o == 0 {
                owner(self.board[f_end])
            } else {
                old_o
            };
            let to = if new_o == 0 {
                owner(self.board[f_end])
            } else {
                new_o
            };
            self.shift_ray(c, back, from, to);
        }
    }

    /// The slot of the first stack (or sentinel) from `c` along `step`.
    #[inline(always)]
    fn first_stack(&self, c: usize, step: usize) -> usize {
        let mut x = c.wrapping_add(step);
        while self.board[x] == EMPTY {
            x = x.wrapping_add(step);
        }
        x
    }

    /// Moves one unit of sight from owner `from` to owner `to` on every cell of the ray from
    /// `c` along `step`, up to and including the first stack. Owners 0 and 3 have no counts.
    #[inline(always)]
    fn shift_ray(&mut self, c: usize, step: usize, from: u8, to: u8) {
        if from == to {
            return;
        }
        let mut x = c.wrapping_add(step);
        loop {
            let v = self.board[x];
            if v == OFF {
                break;
            }
            if from == 1 || from == 2 {
                self.sight[from as usize - 1][x] -= 1;
            }
            if to == 1 || to == 2 {
                self.sight[to as usize - 1][x] += 1;
            }
            if v != EMPTY {
                break;
            }
            x = x.wrapping_add(step);
        }
    }

    fn set_phase(&mut self, phase: Phase) {
        self.hash ^= KEYS.phase[self.phase.key_index()] ^ KEYS.phase[phase.key_index()];
        self.phase = phase;
    }

    fn set_passes(&mut self, passes: u8) {
        self.hash ^= KEYS.passes[self.passes as usize] ^ KEYS.passes[passes as usize];
        self.passes = passes;
    }

    /// Whether `cell` lies on this game's board.
    pub fn contains(&self, cell: Cell) -> bool {
        self.board[cell.index()] != OFF
    }

    /// Every cell of the board, letter by letter, numbers ascending.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..GRID)
            .filter(|&c| self.board[c] != OFF)
            .map(Cell::from_index)
    }

    /// The stack on `cell`, if any (`None` also for a cell off the board).
    pub fn stack(&self, cell: Cell) -> Option<Stack> {
        let v = self.board[cell.index()];
        let owner = match owner(v) {
            1 => Owner::Red,
            2 => Owner::White,
            3 => Owner::Neutral,
            _ => return None,
        };
        Some(Stack {
            owner,
            height: height(v),
        })
    }

    /// The number of `colour`'s stacks seen from `cell` (0 off the board).
    pub fn sight(&self, cell: Cell, colour: Colour) -> u8 {
        self.sight[colour.index()][cell.index()]
    }

    /// The phase field: setup, choose, or the colour to move.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The passes made in a row: 0 or 1 during the game, 2 once it has ended.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The colour to move, once the colours are chosen and while the game goes on.
    pub fn colour_to_move(&self) -> Option<Colour> {
        match self.phase {
            Phase::Play(c) if self.passes < 2 => Some(c),
            _ => None,
        }
    }

    /// The seat playing `colour`, once the colours are chosen.
    pub fn seat_of(&self, colour: Colour) -> Option<Seat> {
        match self.phase {
            Phase::Setup | Phase::Choose => None,
            Phase::Play(_) => Some(match colour {
                Colour::Red => self.red_seat,
                Colour::White => self.red_seat.other(),
            }),
        }
    }

    /// Says which seat holds red, for a caller that resumes a game from a position after the
    /// choice (the notation does not record it; see the crate documentation). The position
    /// and its hash are unchanged.
    pub fn set_red_seat(&mut self, seat: Seat) {
        self.red_seat = seat;
    }

    /// The score (red, white): cells holding the colour's stacks plus empty cells that see
    /// more of its stacks than of the opponent's. The neutral stack counts for nobody.
    pub fn score(&self) -> (u32, u32) {
        let (mut red, mut white) = (0, 0);
        for c in 0..GRID {
            match owner(self.board[c]) {
                1 => red += 1,
                2 => white += 1,
                0 if self.board[c] == EMPTY => {
                    let (r, w) = (self.sight[0][c], self.sight[1][c]);
                    red += u32::from(r > w);
                    white += u32::from(w > r);
                }
                _ => {}
            }
        }
        (red, white)
    }

    fn empty_cells(&self) -> usize {
        let (lo, hi) = self.variant.scan_range();
        self.board[lo..hi].iter().filter(|&&v| v == EMPTY).count()
    }

    /// Why placing on `cell` is illegal for `colour`, if it is.
    fn placement_error(&self, cell: Cell, colour: Colour) -> Option<String> {
        let v = self.board[cell.index()];
        if v == OFF {
            return Some("the cell is not on the board".into());
        }
        let h = self.sight(cell, colour);
        if h == 0 {
            let name = match colour {
                Colour::Red => "red",
                Colour::White => "white",
            };
            return Some(format!("no {name} stack is seen from this cell"));
        }
        if v != EMPTY && height(v) >= h {
            return Some(format!(
                "the stack there is not lower than the new one (height {h})"
            ));
        }
        None
    }
}

/// For the eight slots from `at`: the high bit of each byte is set when the sight there
/// exceeds the height there, i.e. when a stack can be placed (sentinels have height 7, above
/// any sight). Sight is at most 6 and heights at most 7, so `(s | 0x80) - h - 1` never
/// borrows across bytes, and its high bit says `s > h`.
#[inline(always)]
fn placeable(sight: &[u8; GRID], board: &[u8; GRID], at: usize) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let word = |bytes: &[u8; GRID]| {
        let mut chunk = [0u8; 8];
        chunk.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(chunk)
    };
    let (s, h) = (word(sight), word(board) & (7 * ONES));
    ((s | (0x80 * ONES)) - h - ONES) & (0x80 * ONES)
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        id: "hex8",
        names: Names {
            ru: "Шестиугольник 8",
            uk: "Шестикутник 8",
            en: "Hexagon 8",
        },
    },
    VariantInfo {
        id: "hex11",
        names: Names {
            ru: "Шестиугольник 11",
            uk: "Шестикутник 11",
            en: "Hexagon 11",
        },
    },
    VariantInfo {
        id: "hex6",
        names: Names {
            ru: "Шестиугольник 6, для начинающих",
            uk: "Шестикутник 6, для початківців",
            en: "Hexagon 6, for beginners",
        },
    },
];

impl Game for Tumbleweed {
    type Variant = Variant;
    type Move = Move;
    type Undo = Undo;

    const INFO: GameInfo = GameInfo {
        id: "tumbleweed",
        names: Names::same("Tumbleweed"),
        summary: Names {
            ru: "Игроки ставят на шестиугольную доску башни, высота которых равна числу \
                 их башен, видимых с клетки, и борются за территорию.",
            uk: "Гравці ставлять на шестикутну дошку вежі, висота яких дорівнює кількості \
                 їхніх веж, видимих із клітинки, і змагаються за територію.",
            en: "Players place stacks on a hexagonal board, each as tall as the number of \
                 their own stacks in sight of the cell, and fight for territory.",
        },
        seats: 2,
        has_dice: false,
        variants: VARIANTS,
    };

    fn new(variant: Variant, _seed: u64) -> Self {
        Tumbleweed::assemble(variant, *variant.start_board(), Phase::Setup, 0)
    }

    fn from_position(variant: Variant, position: &str, _seed: u64) -> Result<Self, Error> {
        notation::parse_position(variant, position)
            .map(|(board, phase, passes)| Tumbleweed::assemble(variant, board, phase, passes))
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn position(&self) -> String {
        notation::format_position(self.variant, &self.board, self.phase, self.passes)
    }

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::Setup => Some(Seat::A),
            Phase::Choose => Some(Seat::B),
            Phase::Play(c) if self.passes < 2 => self.seat_of(c),
            Phase::Play(_) => None,
        }
    }

    fn turn_label(&self) -> &'static str {
        self.phase.label()
    }

    fn seat_label(&self, seat: Seat) -> &'static str {
        match self.phase {
            Phase::Setup | Phase::Choose => seat.letter(),
            Phase::Play(_) if seat == self.red_seat => "r",
            Phase::Play(_) => "w",
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.passes < 2 {
            return None;
        }
        let (red, white) = self.score();
        Some(match red.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Win(self.red_seat),
            std::cmp::Ordering::Less => Outcome::Win(self.red_seat.other()),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Setup => {
                // Every ordered pair of distinct empty cells, pushed slice by slice so the
                // copy loop runs without a capacity check per move.
                let mut empties = [0usize; 331];
                let mut count = 0;
                let (lo, hi) = self.variant.scan_range();
                for c in lo..hi {
                    if self.board[c] == EMPTY {
                        empties[count] = c;
                        count += 1;
                    }
                }
                let empties = &empties[..count];
                out.reserve(count * count.saturating_sub(1));
                for (k, &r) in empties.iter().enumerate() {
                    let red = Cell::from_index(r);
                    let pair = |&w: &usize| Move::Setup {
                        red,
                        white: Cell::from_index(w),
                    };
                    out.extend(empties[..k].iter().map(pair));
                    out.extend(empties[k + 1..].iter().map(pair));
                }
            }
            Phase::Choose => {
                out.push(Move::Choose(Colour::Red));
                out.push(Move::Choose(Colour::White));
            }
            Phase::Play(_) if self.passes >= 2 => {}
            Phase::Play(colour) => {
                let sight = &self.sight[colour.index()];
                let (lo, hi) = self.variant.scan_range();
                // Two passes: the masks and their total first, so that the list is sized
                // once and then filled without a capacity check per move.
                let mut masks = [0u64; GRID / 8];
                let mut total = 0;
                for (k, at) in (lo..hi).step_by(8).enumerate() {
                    masks[k] = placeable(sight, &self.board, at);
                    total += masks[k].count_ones() as usize;
                }
                out.resize(total + 1, Move::Pass);
                let mut n = 0;
                for (k, at) in (lo..hi).step_by(8).enumerate() {
                    let mut mask = masks[k];
                    while mask != 0 {
                        let c = at + (mask.trailing_zeros() / 8) as usize;
                        out[n] = Move::Place(Cell::from_index(c));
                        n += 1;
                        mask &= mask - 1;
                    }
                }
                // The last entry stays the pass it was filled with.
            }
        }
    }

    fn count_legal(&self) -> usize {
        match self.phase {
            Phase::Setup => {
                let e = self.empty_cells();
                e * e.saturating_sub(1)
            }
            Phase::Choose => 2,
            Phase::Play(_) if self.passes >= 2 => 0,
            Phase::Play(colour) => {
                let sight = &self.sight[colour.index()];
                let (lo, hi) = self.variant.scan_range();
                let placements: usize = (lo..hi)
                    .step_by(8)
                    .map(|at| placeable(sight, &self.board, at).count_ones() as usize)
                    .sum();
                placements + 1
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            slot: EMPTY,
            passes: self.passes,
            red_seat: self.red_seat,
        };
        match mv {
            Move::Setup { red, white } => {
                self.set_slot(red.index(), RED | 1);
                self.set_slot(white.index(), WHITE | 1);
                self.set_phase(Phase::Choose);
                undo
            }
            Move::Choose(colour) => {
                self.red_seat = match colour {
                    Colour::Red => Seat::B,
                    Colour::White => Seat::A,
                };
                self.set_phase(Phase::Play(Colour::Red));
                undo
            }
            Move::Place(cell) => {
                let Phase::Play(colour) = self.phase else {
                    panic!("a placement during {:?}", self.phase);
                };
                let c = cell.index();
                let slot = self.board[c];
                let h = self.sight[colour.index()][c];
                self.set_slot(c, colour.slot() | h);
                self.set_passes(0);
                self.set_phase(Phase::Play(colour.other()));
                Undo { slot, ..undo }
            }
            Move::Pass => {
                let Phase::Play(colour) = self.phase else {
                    panic!("a pass during {:?}", self.phase);
                };
                self.set_passes(self.passes + 1);
                self.set_phase(Phase::Play(colour.other()));
                undo
            }
        }
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        match mv {
            Move::Setup { red, white } => {
                self.set_slot(white.index(), EMPTY);
                self.set_slot(red.index(), EMPTY);
                self.set_phase(Phase::Setup);
            }
            Move::Choose(_) => {
                self.red_seat = undo.red_seat;
                self.set_phase(Phase::Choose);
            }
            Move::Place(cell) => {
                if let Phase::Play(colour) = self.phase {
                    self.set_phase(Phase::Play(colour.other()));
                }
                self.set_passes(undo.passes);
                self.set_slot(cell.index(), undo.slot);
            }
            Move::Pass => {
                if let Phase::Play(colour) = self.phase {
                    self.set_phase(Phase::Play(colour.other()));
                }
                self.set_passes(undo.passes);
            }
        }
    }

    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn check_move(&self, mv: Move) -> Result<(), Error> {
        if self.outcome().is_some() {
            return Err(Error::GameOver);
        }
        let text = notation::format_move(mv);
        let fail = |reason: &str| Err(Error::illegal(text.clone(), reason));
        match (self.phase, mv) {
            (Phase::Setup, Move::Setup { red, white }) => {
                for cell in [red, white] {
                    if !self.contains(cell) {
                        return Err(Error::illegal(
                            cell.to_string(),
                            "the cell is not on the board",
                        ));
                    }
                    if self.board[cell.index()] != EMPTY {
                        return Err(Error::illegal(cell.to_string(), "the cell is occupied"));
                    }
                }
                if red == white {
                    return fail("the two checkers go on two different cells");
                }
                Ok(())
            }
            (Phase::Setup, _) => {
                fail("the game opens with the setup: a red cell and a white cell, as e4,f6")
            }
            (Phase::Choose, Move::Choose(_)) => Ok(()),
            (Phase::Choose, _) => fail("side b now chooses a colour: red or white"),
            (Phase::Play(_), Move::Setup { .. }) => fail("the setup is already done"),
            (Phase::Play(_), Move::Choose(_)) => fail("the colours are already chosen"),
            (Phase::Play(_), Move::Pass) => Ok(()),
            (Phase::Play(colour), Move::Place(cell)) => match self.placement_error(cell, colour) {
                Some(reason) => fail(&reason),
                None => Ok(()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_h8_on_hex8() {
        assert_eq!(Variant::Hex8.centre().to_string(), "h8");
        assert_eq!(Variant::Hex6.centre().to_string(), "f6");
        assert_eq!(Variant::Hex11.centre().to_string(), "k11");
    }

    #[test]
    fn cell_counts_match_the_spec() {
        for (v, n) in [
            (Variant::Hex8, 169),
            (Variant::Hex11, 331),
            (Variant::Hex6, 91),
        ] {
            let g = Tumbleweed::new(v, 0);
            assert_eq!(g.cells().count(), n);
            assert_eq!(v.cells(), n);
        }
    }

    #[test]
    fn incremental_sight_matches_a_recount() {
        let mut rng = game::GameRng::seeded(5);
        let mut moves = Vec::new();
        for v in [Variant::Hex6, Variant::Hex8] {
            let mut g = Tumbleweed::new(v, 0);
            let mut history = Vec::new();
            for _ in 0..300 {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u32) as usize];
                let undo = g.make(mv);
                history.push((mv, undo));
                assert_eq!(g.sight, g.sight_from_scratch());
                assert_eq!(g.hash, g.hash_from_scratch());
            }
            while let Some((mv, undo)) = history.pop() {
                g.unmake(mv, undo);
                assert_eq!(g.sight, g.sight_from_scratch());
            }
            assert_eq!(g.position(), Tumbleweed::new(v, 0).position());
        }
    }
}
