//! Which requests name this server: a request's `Host` (and `Origin`,
//! where a browser sends one) must name the address the server listens on
//! with its port, or a name given with `--allow-host`. A page of another
//! site whose name is made to resolve to this machine (DNS rebinding)
//! sends its own name, and is refused; so is a script of another site's
//! page (its `Origin`, or `Sec-Fetch-Site: cross-site` on an API call).

use axum::http::{header, HeaderMap, StatusCode};
use std::net::{IpAddr, SocketAddr};

/// The hosts a request may name.
pub struct Hosts {
    port: u16,
    /// Names valid with the server's port: its address's.
    own: Vec<String>,
    /// Whether the server listens on every address (0.0.0.0 or ::): then
    /// any address, written as one, names it.
    any_address: bool,
    /// Names valid with any port (`--allow-host`: behind a proxy the port
    /// may be the proxy's).
    extra: Vec<String>,
}

impl Hosts {
    /// The hosts of a server listening on `bound`, and the names `extra`
    /// (lower-cased; an IPv6 address in brackets).
    pub fn new(bound: SocketAddr, extra: &[String]) -> Hosts {
        let ip = bound.ip();
        let mut own = vec![host_text(ip)];
        if ip.is_loopback() || ip.is_unspecified() {
            own.push("localhost".into());
        }
        Hosts {
            port: bound.port(),
            own,
            any_address: ip.is_unspecified(),
            extra: extra.iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether `authority` (`name[:port]`, as in `Host`) names the server.
    fn names_us(&self, authority: &str) -> bool {
        let Some((name, port)) = split_authority(&authority.to_ascii_lowercase()) else {
            return false;
        };
        if self.extra.contains(&name) {
            return true;
        }
        let own = self.own.contains(&name) || (self.any_address && parse_ip(&name).is_some());
        own && port.unwrap_or(80) == self.port
    }

    /// Checks a request's `Host`, `Origin` and, for `api` paths,
    /// `Sec-Fetch-Site`: the status and message of its refusal, if refused.
    pub fn check(&self, headers: &HeaderMap, api: bool) -> Result<(), (StatusCode, String)> {
        let forbidden = |msg: String| Err((StatusCode::FORBIDDEN, msg));
        let mut hosts = headers.get_all(header::HOST).iter();
        let (Some(host), None) = (hosts.next(), hosts.next()) else {
            return Err((
                StatusCode::BAD_REQUEST,
                "a request names its host once (Host)".into(),
            ));
        };
        let host = host.to_str().unwrap_or("");
        if !self.names_us(host) {
            return forbidden(format!(
                "host '{}' is not this server's (gamut serve --allow-host NAME allows a name)",
                host.escape_debug()
            ));
        }
        for origin in headers.get_all(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let ok = match origin.split_once("://") {
                Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => self.names_us(rest),
                Some((scheme, rest)) if scheme.eq_ignore_ascii_case("https") => {
                    split_authority(&rest.to_ascii_lowercase())
                        .is_some_and(|(name, _)| self.extra.contains(&name))
                }
                _ => false,
            };
            if !ok {
                return forbidden(format!(
                    "requests from pages of '{}' are refused",
                    origin.escape_debug()
                ));
            }
        }
        if api {
            let site = headers.get("sec-fetch-site").map(|v| v.as_bytes());
            if site.is_some_and(|s| s != b"same-origin" && s != b"none") {
                return forbidden("requests from other sites' pages are refused".into());
            }
        }
        Ok(())
    }
}

/// An address as a URL writes it (IPv6 in brackets).
fn host_text(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    }
}

/// The address a host name writes, if it writes one (IPv6 in brackets).
fn parse_ip(name: &str) -> Option<IpAddr> {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6),
        None => name.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4),
    }
}

/// `name[:port]` split, the name as written (IPv6 in brackets); `None` if
/// it is not such a text.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let (name, port) = if authority.starts_with('[') {
        let end = authority.find(']')?;
        let (name, rest) = authority.split_at(end + 1);
        match rest {
            "" => (name, None),
            _ => (name, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match authority.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
    };
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.[]:".contains(&b));
    plain.then(|| (name.to_string(), port))
}

/// Whether `name` may be given to `--allow-host`: a host name, an IPv4
/// address or an IPv6 address in brackets, without a port.
#[must_use]
pub fn valid_name(name: &str) -> bool {
    parse_ip(name).is_some()
        || (!name.is_empty()
            && !name.starts_with(['-', '.'])
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.".contains(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn check(hosts: &Hosts, pairs: &[(&'static str, &'static str)]) -> Result<(), u16> {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        hosts.check(&h, true).map_err(|(s, _)| s.as_u16())
    }

    #[test]
    fn only_the_server_s_own_names_and_allowed_ones_pass() {
        let local = Hosts::new("127.0.0.1:8080".parse().unwrap(), &["Box.lan".into()]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "box.lan",
            "box.lan:443",
        ] {
            assert_eq!(check(&local, &[("host", ok)]), Ok(()), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "[::1]:8080",
            "localhost:8080:1",
            "localhost:",
            "",
            "192.168.1.2:8080",
        ] {
            assert_eq!(check(&local, &[("host", bad)]), Err(403), "{bad}");
        }
        assert_eq!(check(&local, &[]), Err(400));
        let two = [("host", "localhost:8080"), ("host", "localhost:8080")];
        assert_eq!(check(&local, &two), Err(400));
        let host = ("host", "127.0.0.1:8080");
        assert_eq!(
            check(&local, &[host, ("origin", "http://localhost:8080")]),
            Ok(())
        );
        assert_eq!(
            check(&local, &[host, ("origin", "https://box.lan")]),
            Ok(())
        );
        for bad in [
            "http://evil.example",
            "http://localhost:3000",
            "null",
            "https://localhost:8080",
        ] {
            assert_eq!(check(&local, &[host, ("origin", bad)]), Err(403), "{bad}");
        }
        assert_eq!(
            check(&local, &[host, ("sec-fetch-site", "same-origin")]),
            Ok(())
        );
        assert_eq!(
            check(&local, &[host, ("sec-fetch-site", "cross-site")]),
            Err(403)
        );
        let v6 = Hosts::new("[::1]:9000".parse().unwrap(), &[]);
        assert_eq!(check(&v6, &[("host", "[::1]:9000")]), Ok(()));
        assert_eq!(check(&v6, &[("host", "localhost:9000")]), Ok(()));
        assert_eq!(check(&v6, &[("host", "127.0.0.1:9000")]), Err(403));
        let any = Hosts::new("0.0.0.0:80".parse().unwrap(), &[]);
        assert_eq!(check(&any, &[("host", "192.168.1.2")]), Ok(()));
        assert_eq!(check(&any, &[("host", "evil.example")]), Err(403));
        assert!(valid_name("box.lan") && valid_name("[::1]") && valid_name("10.0.0.1"));
        assert!(
            !valid_name("box.lan:80")
                && !valid_name("")
                && !valid_name("a/b")
                && !valid_name("::1")
        );
    }
}
