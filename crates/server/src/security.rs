//! Who is really asking and from where: the client's address (behind a trusted proxy only),
//! whether the site is served over TLS, the same-origin rule for anything that changes state,
//! and the security headers on every response.

use std::net::IpAddr;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, web};

use crate::error::ApiError;

/// A strict policy the web client works under: no inline script or style, nothing from
/// elsewhere, never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; media-src 'self' blob:; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// How the server is reached.
#[derive(Debug, Clone, Default)]
pub struct SecurityConfig {
    /// The site's public address (`https://stolik.example`), when it is served behind a
    /// proxy: it fixes the allowed origin and, with `https`, makes cookies `Secure`.
    pub public_url: Option<String>,
    /// Proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed. Headers from
    /// anyone else are ignored: a client could write them itself.
    pub trusted_proxies: Vec<IpAddr>,
}

impl SecurityConfig {
    /// The public URL's origin (`scheme://host[:port]`), if one is set.
    fn public_origin(&self) -> Option<&str> {
        let url = self.public_url.as_deref()?;
        let after_scheme = url.find("://")? + 3;
        let end = url[after_scheme..]
            .find('/')
            .map_or(url.len(), |i| after_scheme + i);
        Some(&url[..end])
    }

    fn trusts(&self, peer: Option<IpAddr>) -> bool {
        peer.is_some_and(|p| self.trusted_proxies.contains(&p))
    }

    /// The client's address: the peer's, or the last hop a trusted proxy names.
    pub fn client_ip(&self, req: &HttpRequest) -> IpAddr {
        let peer = req.peer_addr().map(|a| a.ip());
        if self.trusts(peer)
            && let Some(forwarded) = req
                .headers()
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|v| v.trim().parse::<IpAddr>().ok())
        {
            return forwarded;
        }
        peer.unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    /// Whether the browser reached the site over TLS: the public URL says so, or a trusted
    /// proxy does.
    pub fn is_https(&self, req: &HttpRequest) -> bool {
        if let Some(url) = &self.public_url {
            return url.starts_with("https://");
        }
        let peer = req.peer_addr().map(|a| a.ip());
        self.trusts(peer)
            && req
                .headers()
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
    }

    /// Refuses a request a page of another site made with the user's cookie: its `Origin`
    /// (or, without one, `Sec-Fetch-Site`) must be this site. Requests without either (API
    /// clients, bots) carry their token themselves and pass.
    pub fn check_same_origin(&self, req: &HttpRequest) -> Result<(), ApiError> {
        let headers = req.headers();
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let ours = match self.public_origin() {
                Some(public) => origin.eq_ignore_ascii_case(public),
                None => {
                    let host = req.connection_info().host().to_string();
                    origin
                        .split_once("://")
                        .is_some_and(|(_, rest)| rest.eq_ignore_ascii_case(&host))
                }
            };
            return if ours {
                Ok(())
            } else {
                Err(ApiError::forbidden(format!(
                    "cross-origin request from {origin:?} refused"
                )))
            };
        }
        match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
            Some("cross-site" | "same-site") => Err(ApiError::forbidden(
                "cross-site request refused: it did not come from this site's pages",
            )),
            _ => Ok(()),
        }
    }
}

/// Methods that only read: everything else must come from this site's own pages.
fn changes_state(req: &ServiceRequest) -> bool {
    !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The middleware: the same-origin rule for state-changing requests (and the WebSocket
/// upgrade, whose handler checks it too), then the security headers on whatever answers.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let config = req.app_data::<web::Data<SecurityConfig>>().cloned();
    if let Some(config) = &config
        && changes_state(&req)
        && let Err(e) = config.check_same_origin(req.request())
    {
        let response = actix_web::ResponseError::error_response(&e);
        let https = config.is_https(req.request());
        let mut response = req.into_response(response);
        add_headers(response.headers_mut(), https);
        return Ok(response);
    }
    let https = config.as_ref().is_some_and(|c| c.is_https(req.request()));
    let mut response = next.call(req).await?.map_into_boxed_body();
    add_headers(response.headers_mut(), https);
    Ok(response)
}

/// What browser features the pages may use: the microphone (voice chat) for this site only,
/// in no frame of another; nothing else that needs a permission.
pub const PERMISSIONS_POLICY: &str = "microphone=(self), camera=(), geolocation=(), \
     payment=(), usb=(), serial=(), hid=(), bluetooth=(), midi=(), display-capture=()";

/// Browsers that once reached the site over TLS use nothing else for two years.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000";

fn add_headers(headers: &mut header::HeaderMap, https: bool) {
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            header::HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
        );
    }
    let set = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::HeaderName::from_static("permissions-policy"),
            PERMISSIONS_POLICY,
        ),
        (
            header::HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in set {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_origin_must_be_this_site() {
        let config = SecurityConfig::default();
        let ours = TestRequest::default()
            .insert_header((header::HOST, "localhost:8080"))
            .insert_header((header::ORIGIN, "http://localhost:8080"))
            .to_http_request();
        assert!(config.check_same_origin(&ours).is_ok());
        let theirs = TestRequest::default()
            .insert_header((header::HOST, "localhost:8080"))
            .insert_header((header::ORIGIN, "https://evil.example"))
            .to_http_request();
        assert!(config.check_same_origin(&theirs).is_err());
        let sibling = TestRequest::default()
            .insert_header(("sec-fetch-site", "same-site"))
            .to_http_request();
        assert!(config.check_same_origin(&sibling).is_err());
        let api_client = TestRequest::default().to_http_request();
        assert!(config.check_same_origin(&api_client).is_ok());
    }

    #[test]
    fn a_public_url_fixes_the_origin_and_tls() {
        let config = SecurityConfig {
            public_url: Some("https://stolik.example/".into()),
            trusted_proxies: vec![],
        };
        assert_eq!(config.public_origin(), Some("https://stolik.example"));
        let ours = TestRequest::default()
            .insert_header((header::ORIGIN, "https://stolik.example"))
            .to_http_request();
        assert!(config.check_same_origin(&ours).is_ok());
        assert!(config.is_https(&ours));
        let plain = TestRequest::default()
            .insert_header((header::ORIGIN, "http://stolik.example"))
            .to_http_request();
        assert!(config.check_same_origin(&plain).is_err());
    }

    #[test]
    fn forwarded_headers_count_only_from_a_trusted_proxy() {
        let proxy: IpAddr = "10.0.0.5".parse().unwrap();
        let forged = TestRequest::default()
            .peer_addr("192.0.2.7:5000".parse().unwrap())
            .insert_header(("x-forwarded-for", "198.51.100.1"))
            .insert_header(("x-forwarded-proto", "https"))
            .to_http_request();
        let config = SecurityConfig {
            public_url: None,
            trusted_proxies: vec![proxy],
        };
        assert_eq!(
            config.client_ip(&forged),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert!(!config.is_https(&forged));
        let proxied = TestRequest::default()
            .peer_addr("10.0.0.5:5000".parse().unwrap())
            .insert_header(("x-forwarded-for", "203.0.113.9, 198.51.100.1"))
            .insert_header(("x-forwarded-proto", "https"))
            .to_http_request();
        assert_eq!(
            config.client_ip(&proxied),
            "198.51.100.1".parse::<IpAddr>().unwrap()
        );
        assert!(config.is_https(&proxied));
    }
}
