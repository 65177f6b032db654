//! The signals the `voice` relay carries: WebRTC's offer, answer and ICE candidate, and the
//! hang-up, each with bounded fields. Anything else is refused when the request is parsed, so
//! the relay never carries arbitrary data from one player to another.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, de};

/// The most characters of a session description: an offer or answer for one audio track is
/// about 1–3 KB; this leaves room for many codecs and candidates and stays inside a socket
/// frame (16 KiB).
pub const SDP_MAX_CHARS: usize = 8_192;
/// The most characters of one ICE candidate line (RFC 8839's attributes fit in a few hundred).
pub const CANDIDATE_MAX_CHARS: usize = 1_024;
/// The most characters of a media id and of an ICE username fragment.
pub const TAG_MAX_CHARS: usize = 256;

/// One WebRTC signal, tagged by `kind` as the web client sends it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum VoiceSignal {
    Offer {
        sdp: Bounded<SDP_MAX_CHARS>,
    },
    Answer {
        sdp: Bounded<SDP_MAX_CHARS>,
    },
    Ice {
        candidate: IceCandidate,
    },
    /// The sender hung up (`{"kind": "bye"}`).
    Bye {},
}

/// `RTCIceCandidate.toJSON()`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IceCandidate {
    pub candidate: Bounded<CANDIDATE_MAX_CHARS>,
    #[serde(default)]
    pub sdp_mid: Option<Bounded<TAG_MAX_CHARS>>,
    #[serde(default, rename = "sdpMLineIndex")]
    pub sdp_m_line_index: Option<u16>,
    #[serde(default)]
    pub username_fragment: Option<Bounded<TAG_MAX_CHARS>>,
}

/// A text of at most `N` characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Bounded<const N: usize>(String);

impl<const N: usize> Bounded<N> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de, const N: usize> Deserialize<'de> for Bounded<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.chars().count() > N {
            return Err(de::Error::custom(TooLong(N)));
        }
        Ok(Bounded(text))
    }
}

struct TooLong(usize);

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a text of at most {} characters", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: serde_json::Value) -> Result<VoiceSignal, serde_json::Error> {
        serde_json::from_value(v)
    }

    #[test]
    fn webrtc_signals_parse_and_go_out_as_they_came() {
        for v in [
            json!({"kind": "offer", "sdp": "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n"}),
            json!({"kind": "answer", "sdp": "v=0\r\n"}),
            json!({"kind": "ice", "candidate": {"candidate": "candidate:1 1 udp 2122260223 10.0.0.1 5000 typ host",
                   "sdpMid": "0", "sdpMLineIndex": 0, "usernameFragment": "abcd"}}),
            json!({"kind": "ice", "candidate": {"candidate": "", "sdpMid": null, "sdpMLineIndex": null}}),
            json!({"kind": "bye"}),
        ] {
            let signal = parse(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"));
            let back = serde_json::to_value(&signal).unwrap();
            for (key, value) in v.as_object().unwrap() {
                if !value.is_object() {
                    assert_eq!(&back[key], value, "{v}");
                }
            }
        }
    }

    #[test]
    fn anything_else_is_refused() {
        for v in [
            json!("hello"),
            json!({"text": "hello"}),
            json!({"kind": "chat", "text": "hello"}),
            json!({"kind": "offer"}),
            json!({"kind": "offer", "sdp": "v=0", "note": "hello"}),
            json!({"kind": "offer", "sdp": 5}),
            json!({"kind": "offer", "sdp": "x".repeat(SDP_MAX_CHARS + 1)}),
            json!({"kind": "ice", "candidate": {"candidate": "x".repeat(CANDIDATE_MAX_CHARS + 1)}}),
            json!({"kind": "ice", "candidate": {"candidate": "c", "extra": 1}}),
            json!({"kind": "ice", "candidate": {"candidate": "c", "sdpMLineIndex": -1}}),
            json!({"kind": "bye", "reason": "hello"}),
        ] {
            assert!(parse(v.clone()).is_err(), "{v}");
        }
        assert!(parse(json!({"kind": "offer", "sdp": "x".repeat(SDP_MAX_CHARS)})).is_ok());
    }
}
