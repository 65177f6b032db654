//! Compression only where it pays: a body under [`WORTH_COMPRESSING`] bytes (most API answers,
//! every error and every refusal) goes out as it is.
//!
//! actix's `Compress` gzips whatever the client accepts, and setting up a gzip stream (some
//! 300 KB of state, allocated and cleared) costs more than a small answer could save: under a
//! flood of refused requests it was the larger part of each refusal's cost. `Compress` leaves
//! alone a response that already names its encoding, so [`mark_small`], inside it, names small
//! bodies `identity`, and [`unmark`], outside it, takes that name off before the response
//! leaves (`identity` is not meant to be sent as a content coding).

use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{CONTENT_ENCODING, HeaderValue};
use actix_web::middleware::Next;

/// Bodies smaller than this are sent uncompressed.
pub const WORTH_COMPRESSING: u64 = 1024;

const IDENTITY: HeaderValue = HeaderValue::from_static("identity");

/// Inside `Compress`: marks a small body as not to be compressed.
pub async fn mark_small(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let mut response = next.call(req).await?;
    if let BodySize::Sized(n) = response.response().body().size()
        && n < WORTH_COMPRESSING
        && !response.headers().contains_key(CONTENT_ENCODING)
    {
        response.headers_mut().insert(CONTENT_ENCODING, IDENTITY);
    }
    Ok(response)
}

/// Outside `Compress`: removes the mark again.
pub async fn unmark(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let mut response = next.call(req).await?;
    if response.headers().get(CONTENT_ENCODING) == Some(&IDENTITY) {
        response.headers_mut().remove(CONTENT_ENCODING);
    }
    Ok(response)
}
