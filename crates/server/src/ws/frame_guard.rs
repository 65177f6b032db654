//! Refuses an oversized WebSocket frame or message by the length its header announces, before
//! its body is read.
//!
//! The WebSocket decoder checks a frame's size only once the whole frame is buffered, so one
//! connection announcing a 1 GiB frame and streaming its body would make the server buffer
//! 1 GiB. This adapter sits between the connection's byte stream and the decoder: it follows
//! the frame headers as the bytes pass (it does not copy or change them) and ends the stream
//! with [`PayloadError::Overflow`] as soon as a header announces a frame over the limit, or a
//! fragmented message's frames add up to more than it.

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use futures_core::Stream;

/// The longest a frame header can be: 2 bytes, an 8-byte extended length, a 4-byte mask.
const MAX_HEADER: usize = 14;

pub struct FrameGuard<S> {
    inner: S,
    limit: u64,
    /// The header being read, and how many of its bytes are known.
    header: [u8; MAX_HEADER],
    have: usize,
    /// Bytes of the current frame's body still to pass.
    body_left: u64,
    /// The data bytes of the message being assembled from fragments so far.
    message: u64,
    failed: bool,
}

impl<S> FrameGuard<S> {
    /// Frames and (fragmented) messages of at most `limit` payload bytes pass.
    pub fn new(inner: S, limit: usize) -> FrameGuard<S> {
        FrameGuard {
            inner,
            limit: limit as u64,
            header: [0; MAX_HEADER],
            have: 0,
            body_left: 0,
            message: 0,
            failed: false,
        }
    }

    /// Follows the frames through `bytes`; `false` when one is over the limit.
    fn scan(&mut self, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            if self.body_left > 0 {
                let skip = self.body_left.min(bytes.len() as u64);
                self.body_left -= skip;
                bytes = &bytes[skip as usize..];
                continue;
            }
            let need = self.header_len();
            let take = (need - self.have).min(bytes.len());
            self.header[self.have..self.have + take].copy_from_slice(&bytes[..take]);
            self.have += take;
            bytes = &bytes[take..];
            // The first two bytes tell how long the header is: read again until it is whole.
            if self.have == need && self.header_len() == need {
                if !self.frame_fits() {
                    return false;
                }
                self.have = 0;
            }
        }
        true
    }

    /// The header's length as far as it is known (2 until its second byte is read).
    fn header_len(&self) -> usize {
        if self.have < 2 {
            return 2;
        }
        let extended = match self.header[1] & 0x7f {
            126 => 2,
            127 => 8,
            _ => 0,
        };
        let mask = if self.header[1] & 0x80 != 0 { 4 } else { 0 };
        2 + extended + mask
    }

    /// Reads the whole header just collected: is its frame within the limits?
    fn frame_fits(&mut self) -> bool {
        let fin = self.header[0] & 0x80 != 0;
        let opcode = self.header[0] & 0x0f;
        let length = match self.header[1] & 0x7f {
            126 => u16::from_be_bytes([self.header[2], self.header[3]]) as u64,
            127 => u64::from_be_bytes(self.header[2..10].try_into().expect("eight bytes")),
            short => short as u64,
        };
        if length > self.limit {
            return false;
        }
        // Control frames (opcodes 8 and up) may come between the fragments of a message.
        if opcode < 8 {
            self.message += length;
            if self.message > self.limit {
                return false;
            }
            if fin {
                self.message = 0;
            }
        }
        self.body_left = length;
        true
    }
}

impl<S> Stream for FrameGuard<S>
where
    S: Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.failed {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(bytes))) => {
                if self.scan(&bytes) {
                    Poll::Ready(Some(Ok(bytes)))
                } else {
                    self.failed = true;
                    Poll::Ready(Some(Err(PayloadError::Overflow)))
                }
            }
            other => other,
        }
    }
}

/// Whether a stream error is this guard's refusal.
pub fn is_overflow(error: &actix_ws::ProtocolError) -> bool {
    match error {
        actix_ws::ProtocolError::Overflow => true,
        actix_ws::ProtocolError::Io(io) => io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<PayloadError>())
            .is_some_and(|e| matches!(e, PayloadError::Overflow)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A masked client frame header announcing `length` bytes.
    fn header(fin: bool, opcode: u8, length: u64) -> Vec<u8> {
        let mut out = vec![(if fin { 0x80 } else { 0 }) | opcode];
        match length {
            0..=125 => out.push(0x80 | length as u8),
            126..=0xffff => {
                out.push(0x80 | 126);
                out.extend_from_slice(&(length as u16).to_be_bytes());
            }
            _ => {
                out.push(0x80 | 127);
                out.extend_from_slice(&length.to_be_bytes());
            }
        }
        out.extend_from_slice(&[1, 2, 3, 4]);
        out
    }

    fn frame(fin: bool, opcode: u8, length: usize) -> Vec<u8> {
        let mut out = header(fin, opcode, length as u64);
        out.extend(std::iter::repeat_n(b'x', length));
        out
    }

    #[test]
    fn frames_within_the_limit_pass_in_any_split() {
        let mut bytes = frame(true, 1, 100);
        bytes.extend(frame(true, 1, 1000));
        bytes.extend(frame(true, 9, 4));
        bytes.extend(frame(true, 1, 16 * 1024));
        for chunk in [1, 3, 7, 64, 5000, bytes.len()] {
            let mut guard = FrameGuard::new((), 16 * 1024);
            assert!(
                bytes.chunks(chunk).all(|c| guard.scan(c)),
                "chunks of {chunk}"
            );
            assert_eq!((guard.have, guard.body_left), (0, 0));
        }
    }

    #[test]
    fn an_announced_giant_frame_is_refused_on_its_header() {
        let mut guard = FrameGuard::new((), 16 * 1024);
        assert!(!guard.scan(&header(true, 2, 1 << 30)));
        let mut guard = FrameGuard::new((), 16 * 1024);
        assert!(!guard.scan(&header(true, 1, 16 * 1024 + 1)));
        // Split inside the extended length, too.
        let mut guard = FrameGuard::new((), 16 * 1024);
        let giant = header(true, 1, u64::MAX >> 1);
        assert!(guard.scan(&giant[..5]));
        assert!(!guard.scan(&giant[5..]));
    }

    #[test]
    fn fragments_add_up_and_control_frames_between_them_do_not_count() {
        let mut guard = FrameGuard::new((), 1000);
        assert!(guard.scan(&frame(false, 1, 600)));
        assert!(guard.scan(&frame(true, 9, 100)));
        assert!(
            !guard.scan(&frame(false, 0, 600)),
            "1,200 bytes in one message"
        );
        let mut guard = FrameGuard::new((), 1000);
        assert!(guard.scan(&frame(false, 1, 600)));
        assert!(guard.scan(&frame(true, 0, 400)));
        assert!(
            guard.scan(&frame(true, 1, 900)),
            "a new message starts from zero"
        );
    }
}
