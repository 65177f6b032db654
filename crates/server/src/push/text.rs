//! What a push says, in the subscription's language: the web client's own texts
//! (web/i18n/*.json), so that a push reads as the notification in the page does.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Serialize;

use super::digest::Outgoing;

const SOURCES: [(&str, &str); 3] = [
    ("en", include_str!("../../../../web/i18n/en.json")),
    ("ru", include_str!("../../../../web/i18n/ru.json")),
    ("uk", include_str!("../../../../web/i18n/uk.json")),
];

fn texts() -> &'static HashMap<&'static str, HashMap<String, String>> {
    static TEXTS: OnceLock<HashMap<&'static str, HashMap<String, String>>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(lang, json)| {
                let map: HashMap<String, String> =
                    serde_json::from_str(json).expect("the web client's texts are JSON");
                (*lang, map)
            })
            .collect()
    })
}

/// The text of `key` in `lang` (English when that language lacks it), `{name}`s filled in.
fn say(lang: &str, key: &str, vars: &[(&str, &str)]) -> String {
    let all = texts();
    let text = all
        .get(lang)
        .and_then(|m| m.get(key))
        .or_else(|| all["en"].get(key))
        .map_or(key, String::as_str);
    let mut out = text.to_string();
    for (name, value) in vars {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// What the service worker receives (decrypted) and shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Payload {
    pub title: String,
    pub body: String,
    /// The page the notification opens: the game's table, the list of games to play, the
    /// tournament's page or the challenges page.
    pub url: String,
    /// One notification per game on the device: a newer push about it replaces the older.
    pub tag: String,
    /// The notification's kind, or `digest`.
    pub kind: &'static str,
    pub game_id: Option<String>,
    /// The tournament a tournament's push is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_id: Option<String>,
    /// The challenge a challenge's push is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_id: Option<String>,
}

/// The game's name in `lang`.
fn game_name(game: &str, lang: &str) -> String {
    catalog::GAMES.iter().find(|g| g.id == game).map_or_else(
        || game.to_string(),
        |g| {
            match lang {
                "ru" => g.names.ru,
                "uk" => g.names.uk,
                _ => g.names.en,
            }
            .to_string()
        },
    )
}

/// The opponent as the player knows them: a person's name, a bot's name in `lang`.
fn opponent_name(opponent: Option<&str>, lang: &str) -> String {
    match opponent {
        None => say(lang, "notify.someone", &[]),
        Some(bot) if bot.starts_with("bot:") => {
            say(lang, &format!("bot.name.{}", &bot["bot:".len()..]), &[])
        }
        Some(name) => name.to_string(),
    }
}

/// The push for `outgoing`.
pub fn payload(outgoing: &Outgoing) -> Payload {
    let first = outgoing.first();
    let lang = first.subscription.lang.as_str();
    let title = say(lang, "app.name", &[]);
    match outgoing {
        // About a challenge: it names the challenger and the game, and opens the challenges
        // page, where it is answered.
        Outgoing::One(row) if row.about == "challenge" => Payload {
            title,
            body: say(
                lang,
                &format!("notify.{}", row.kind),
                &[
                    ("game", &game_name(&row.game, lang)),
                    ("opponent", &opponent_name(row.opponent.as_deref(), lang)),
                ],
            ),
            url: "/#/challenges".to_string(),
            tag: format!("stolik-{}", row.game_id),
            kind: row.kind.as_str(),
            game_id: None,
            tournament_id: None,
            challenge_id: Some(row.game_id.clone()),
        },
        // About a tournament (`about` is its kind): it opens the tournament's page.
        Outgoing::One(row) if row.about != "game" => {
            let game = game_name(&row.game, lang);
            let name = say(
                lang,
                &format!("push.tournament.{}", row.about),
                &[("game", &game)],
            );
            Payload {
                title,
                body: say(
                    lang,
                    &format!("notify.{}", row.kind),
                    &[("tournament", &name)],
                ),
                url: format!("/#/tournament/{}", row.game_id),
                tag: format!("stolik-{}", row.game_id),
                kind: row.kind.as_str(),
                game_id: None,
                tournament_id: Some(row.game_id.clone()),
                challenge_id: None,
            }
        }
        Outgoing::One(row) => Payload {
            title,
            body: say(
                lang,
                &format!("notify.{}", row.kind),
                &[
                    ("game", &game_name(&row.game, lang)),
                    ("opponent", &opponent_name(row.opponent.as_deref(), lang)),
                ],
            ),
            url: format!("/#/table/{}", row.game_id),
            tag: format!("stolik-{}", row.game_id),
            kind: row.kind.as_str(),
            game_id: Some(row.game_id.clone()),
            tournament_id: None,
            challenge_id: None,
        },
        Outgoing::Digest { games, .. } => Payload {
            title,
            body: say(lang, "push.digest", &[("n", &games.to_string())]),
            url: "/#/playing".to_string(),
            tag: "stolik-digest".to_string(),
            kind: "digest",
            game_id: None,
            tournament_id: None,
            challenge_id: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_text_in_every_language() {
        for lang in super::super::LANGUAGES {
            for kind in record::NoteKind::ALL {
                let key = format!("notify.{kind}");
                assert!(texts()[lang].contains_key(&key), "{lang} lacks {key}");
            }
            for key in [
                "push.digest",
                "push.tournament.arena",
                "push.tournament.round_robin",
            ] {
                assert!(texts()[lang].contains_key(key), "{lang} lacks {key}");
            }
        }
    }

    #[test]
    fn a_challenge_names_the_challenger_and_the_game_and_opens_the_challenges_page() {
        let row = store::PendingPush {
            id: 1,
            subscription_id: 2,
            user_id: "u".into(),
            subscription: store::PushSubscription {
                endpoint: "https://push.example/2".into(),
                p256dh: String::new(),
                auth: String::new(),
                lang: "en".into(),
            },
            kind: record::NoteKind::Challenge,
            about: "challenge".into(),
            game_id: "c1".into(),
            game: "mill".into(),
            opponent: Some("ann".into()),
            attempts: 0,
        };
        let push = payload(&Outgoing::One(Box::new(row)));
        assert_eq!(push.body, "ann challenges you to a game of Mill (Troika)");
        assert_eq!(push.url, "/#/challenges");
        assert_eq!(push.kind, "challenge");
        assert_eq!(
            (push.game_id, push.challenge_id),
            (None, Some("c1".to_string()))
        );
    }

    #[test]
    fn names_are_filled_in() {
        assert_eq!(opponent_name(Some("bot:easy"), "en"), "Stolik bot (easy)");
        assert_eq!(opponent_name(Some("bob"), "ru"), "bob");
        assert_eq!(game_name("mill", "en"), "Mill (Troika)");
        assert_eq!(
            say("en", "push.digest", &[("n", "4")]),
            "4 games wait for you"
        );
    }
}
