//! The digest rule: the pushes of one subscription that are due together go as they are when
//! they concern at most [`DIGEST_OVER`] games, and as one "N games wait for you" push when
//! they concern more. "Due together" is what one round of the sender claims: everything that
//! became due since its last round ([`super::sender::ROUND`]), and everything held back by a
//! push service's refusal meanwhile. A tournament's or a challenge's push is not a game
//! waiting: it always goes on its own.

use std::collections::{BTreeMap, BTreeSet};

use store::PendingPush;

/// More games than this at once make a digest.
pub const DIGEST_OVER: usize = 2;

/// One push to send, and the outbox rows it answers for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outgoing {
    One(Box<PendingPush>),
    /// One push for `rows`, which concern `games` different games.
    Digest {
        rows: Vec<PendingPush>,
        games: usize,
    },
}

impl Outgoing {
    pub fn rows(&self) -> &[PendingPush] {
        match self {
            Outgoing::One(row) => std::slice::from_ref(&**row),
            Outgoing::Digest { rows, .. } => rows,
        }
    }

    /// The subscription it goes to (every row has the same).
    pub fn first(&self) -> &PendingPush {
        &self.rows()[0]
    }
}

/// What to send for the rows claimed in one round, in the order they were queued.
pub fn plan(claimed: Vec<PendingPush>) -> Vec<Outgoing> {
    let mut by_subscription: BTreeMap<i64, Vec<PendingPush>> = BTreeMap::new();
    for row in claimed {
        by_subscription
            .entry(row.subscription_id)
            .or_default()
            .push(row);
    }
    let mut out = Vec::new();
    for (_, rows) in by_subscription {
        // A tournament's or a challenge's news is not a game waiting: it goes on its own.
        let (mut rows, others): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|r| r.about == "game");
        out.extend(others.into_iter().map(|r| Outgoing::One(Box::new(r))));
        rows.sort_by_key(|r| r.id);
        let games = rows
            .iter()
            .map(|r| r.game_id.as_str())
            .collect::<BTreeSet<_>>()
            .len();
        if games > DIGEST_OVER {
            out.push(Outgoing::Digest { rows, games });
        } else {
            out.extend(rows.into_iter().map(|r| Outgoing::One(Box::new(r))));
        }
    }
    out.sort_by_key(|o| o.first().id);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use record::NoteKind;
    use store::PushSubscription;

    fn row(id: i64, subscription_id: i64, game: &str, kind: NoteKind) -> PendingPush {
        PendingPush {
            id,
            subscription_id,
            user_id: format!("u{subscription_id}"),
            subscription: PushSubscription {
                endpoint: format!("https://push.example/{subscription_id}"),
                p256dh: String::new(),
                auth: String::new(),
                lang: "en".into(),
            },
            kind,
            about: "game".into(),
            game_id: game.into(),
            game: "mill".into(),
            opponent: Some("bob".into()),
            attempts: 0,
        }
    }

    #[test]
    fn a_few_games_go_one_by_one() {
        let rows = vec![
            row(1, 7, "g1", NoteKind::YourTurn),
            row(2, 7, "g2", NoteKind::YourTurn),
            row(3, 7, "g2", NoteKind::DrawOffer),
        ];
        let plan = plan(rows.clone());
        assert_eq!(
            plan,
            rows.into_iter()
                .map(|r| Outgoing::One(Box::new(r)))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn more_games_than_the_limit_make_one_digest() {
        let rows = vec![
            row(1, 7, "g1", NoteKind::YourTurn),
            row(2, 7, "g2", NoteKind::YourTurn),
            row(3, 7, "g3", NoteKind::YourTurn),
            row(4, 7, "g3", NoteKind::Deadline),
        ];
        match plan(rows.clone()).as_slice() {
            [Outgoing::Digest { rows: got, games }] => {
                assert_eq!(*games, 3);
                assert_eq!(got, &rows);
            }
            other => panic!("one digest expected, got {other:?}"),
        }
    }

    #[test]
    fn each_subscription_is_counted_on_its_own() {
        // Three games, but spread over two devices of different players: no digest.
        let rows = vec![
            row(1, 7, "g1", NoteKind::YourTurn),
            row(2, 8, "g2", NoteKind::YourTurn),
            row(3, 7, "g3", NoteKind::YourTurn),
            row(4, 8, "g4", NoteKind::YourTurn),
        ];
        let plan = plan(rows);
        assert_eq!(plan.len(), 4);
        assert!(plan.iter().all(|o| matches!(o, Outgoing::One(_))));
        let ids: Vec<i64> = plan.iter().map(|o| o.first().id).collect();
        assert_eq!(ids, [1, 2, 3, 4], "in the order queued");
        // One device with three games among others' pushes: that device gets its digest.
        let mut rows = vec![row(5, 9, "g5", NoteKind::YourTurn)];
        rows.extend((0..3).map(|i| row(10 + i, 7, &format!("h{i}"), NoteKind::YourTurn)));
        let plan = super::plan(rows);
        assert_eq!(plan.len(), 2);
        assert!(matches!(&plan[0], Outgoing::One(r) if r.id == 5));
        assert!(matches!(&plan[1], Outgoing::Digest { games: 3, .. }));
    }

    #[test]
    fn a_tournament_start_or_a_challenge_is_never_part_of_a_digest() {
        let mut rows: Vec<PendingPush> = (0..3)
            .map(|i| row(1 + i, 7, &format!("g{i}"), NoteKind::YourTurn))
            .collect();
        rows.push(PendingPush {
            about: "arena".into(),
            ..row(9, 7, "t1", NoteKind::TournamentStart)
        });
        rows.push(PendingPush {
            about: "challenge".into(),
            ..row(10, 7, "c1", NoteKind::Challenge)
        });
        let plan = plan(rows);
        assert_eq!(plan.len(), 3);
        assert!(matches!(&plan[0], Outgoing::Digest { games: 3, .. }));
        assert!(matches!(&plan[1], Outgoing::One(r) if r.kind == NoteKind::TournamentStart));
        assert!(matches!(&plan[2], Outgoing::One(r) if r.kind == NoteKind::Challenge));
    }
}
