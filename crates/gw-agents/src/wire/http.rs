//! Sending requests: a [`Transport`] (the network, or a recording being
//! replayed), the retry policy around it (backoff on 429 and 5xx, honouring
//! `Retry-After`), and the call records written to `model_calls.jsonl` with
//! secrets redacted and screenshots replaced by their frame path.

use crate::conversation::Image;
use serde_json::{Map, Value, json};
use std::cell::Cell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A request ready to send. Header values marked secret are redacted from
/// every record.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<Header>,
    pub body: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub secret: bool,
}

impl Header {
    pub fn plain(name: &str, value: &str) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
            secret: false,
        }
    }
    pub fn secret(name: &str, value: &str) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
            secret: true,
        }
    }
}

/// What a secret is replaced with in records.
pub const REDACTED: &str = super::secrets::MASK;

/// What came back over the wire.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub body: String,
    pub retry_after: Option<String>,
    pub latency_ms: u64,
    /// A redirect's `Location` that was not followed (the status is 3xx):
    /// the agent stops with an error naming it.
    pub location: Option<String>,
    /// The URLs of the same-origin 307/308 redirects that were followed,
    /// in order (the response is the last one's).
    pub followed: Vec<String>,
}

/// A request that got no HTTP response (timeout, refused connection…).
#[derive(Clone, Debug, PartialEq)]
pub struct TransportFailure {
    pub message: String,
    pub latency_ms: u64,
}

/// Which call this is, for transports that check (replay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallMeta {
    pub step: u32,
    pub attempt: u32,
}

pub trait Transport: Send {
    fn send(
        &mut self,
        req: &HttpRequest,
        meta: CallMeta,
        timeout: Duration,
    ) -> Result<HttpResponse, TransportFailure>;
    /// Wait before a retry (a replay does not wait).
    fn pause(&mut self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// The network, through a blocking `ureq` agent with a whole-request timeout.
///
/// ureq would follow redirects itself (up to 10, turning a POST into a GET
/// on 301–303) and strip only `Authorization` on the way, so another origin
/// would receive `x-api-key` / `x-goog-api-key`. Redirects are therefore
/// handled here: ureq follows none, a 307 or 308 to the same origin
/// (scheme, host and port) is sent again with the same method, headers and
/// body (at most [`MAX_SAME_ORIGIN_REDIRECTS`] times), and every other
/// redirect comes back as it is, with its `Location`, for the agent to
/// refuse.
pub struct NetTransport;

/// How many same-origin 307/308 redirects one call follows.
pub const MAX_SAME_ORIGIN_REDIRECTS: usize = 5;

/// One answer read off the wire, before any redirect decision.
struct Wire {
    status: u16,
    body: String,
    retry_after: Option<String>,
    location: Option<String>,
}

fn send_once(
    agent: &ureq::Agent,
    url: &str,
    req: &HttpRequest,
    payload: &str,
) -> Result<Wire, String> {
    let mut builder = agent.post(url);
    for h in &req.headers {
        builder = builder.header(h.name.as_str(), h.value.as_str());
    }
    let mut resp = builder
        .send(payload)
        .map_err(|e| format!("request to {url} failed: {e}"))?;
    let status = resp.status().as_u16();
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    // OpenAI's `retry-after-ms` is the more precise of its two headers;
    // it travels on as seconds, the unit `Retry-After` uses.
    let retry_after = header("retry-after-ms")
        .and_then(|ms| ms.trim().parse::<f64>().ok())
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .map(|ms| format!("{}", ms / 1000.0))
        .or_else(|| header("retry-after"));
    let location = header("location");
    let body = resp
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .map_err(|e| format!("reading the response from {url} failed: {e}"))?;
    Ok(Wire {
        status,
        body,
        retry_after,
        location,
    })
}

/// `(scheme, host, port)` of an absolute http(s) URL, lower-cased, with
/// the scheme's default port filled in.
pub fn origin(url: &str) -> Option<(String, String, u16)> {
    let uri: ureq::http::Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let host = uri.host()?.to_ascii_lowercase();
    let port = uri.port_u16().or(match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    })?;
    Some((scheme, host, port))
}

/// A `Location` resolved against the URL that sent it: absolute,
/// scheme-relative (`//host/p`), absolute-path (`/p`) or relative (`p`).
pub fn resolve_location(base: &str, location: &str) -> Option<String> {
    let location = location.trim();
    if location.contains("://") {
        return Some(location.to_string());
    }
    let (scheme, rest) = base.split_once("://")?;
    if let Some(rel) = location.strip_prefix("//") {
        return Some(format!("{scheme}://{rel}"));
    }
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    if location.starts_with('/') {
        return Some(format!("{scheme}://{authority}{location}"));
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{scheme}://{authority}{dir}{location}"))
}

impl Transport for NetTransport {
    fn send(
        &mut self,
        req: &HttpRequest,
        _meta: CallMeta,
        timeout: Duration,
    ) -> Result<HttpResponse, TransportFailure> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .build()
            .into();
        let started = Instant::now();
        let elapsed = |s: Instant| s.elapsed().as_millis() as u64;
        let payload = req.body.to_string();
        let mut url = req.url.clone();
        let mut followed = Vec::new();
        loop {
            let wire =
                send_once(&agent, &url, req, &payload).map_err(|message| TransportFailure {
                    message,
                    latency_ms: elapsed(started),
                })?;
            let redirect = (300..400).contains(&wire.status);
            let target = wire
                .location
                .as_deref()
                .filter(|_| redirect)
                .and_then(|l| resolve_location(&url, l));
            let same_origin = target
                .as_deref()
                .is_some_and(|t| origin(t).is_some() && origin(t) == origin(&url));
            if let Some(next) = target.filter(|_| {
                matches!(wire.status, 307 | 308)
                    && same_origin
                    && followed.len() < MAX_SAME_ORIGIN_REDIRECTS
            }) {
                followed.push(next.clone());
                url = next;
                continue;
            }
            return Ok(HttpResponse {
                status: wire.status,
                body: wire.body,
                retry_after: wire.retry_after,
                latency_ms: elapsed(started),
                location: if redirect { wire.location } else { None },
                followed,
            });
        }
    }
}

/// Statuses worth another try: rate limits, server errors, Anthropic's 529.
pub fn retryable(status: u16) -> bool {
    status == 408 || status == 409 || status == 429 || status >= 500
}

/// Longest wait honoured from a `Retry-After` header.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);

/// The wait before retry number `attempt` (1-based): the server's wait when
/// it gave one (`Retry-After` seconds or HTTP-date, `retry-after-ms`, a
/// `RetryInfo` body — see [`NetTransport`] and
/// [`crate::formats::providers::body_retry_delay`]), capped at [`MAX_RETRY_AFTER`];
/// else `base · 2^(attempt-1)` capped at 60 s.
pub fn retry_delay(attempt: u32, base_s: f64, retry_after: Option<&str>) -> Duration {
    retry_delay_capped(attempt, base_s, retry_after, MAX_RETRY_AFTER)
}

/// [`retry_delay`] with the cap on the server's wait given (a profile's
/// `max_retry_wait_s`).
pub fn retry_delay_capped(
    attempt: u32,
    base_s: f64,
    retry_after: Option<&str>,
    cap: Duration,
) -> Duration {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    retry_delay_at(attempt, base_s, retry_after, now, cap)
}

/// [`retry_delay_capped`] with the current time (Unix seconds) given, for dates.
pub fn retry_delay_at(
    attempt: u32,
    base_s: f64,
    retry_after: Option<&str>,
    now: f64,
    cap: Duration,
) -> Duration {
    let asked = retry_after.and_then(|v| {
        let v = v.trim();
        match v.parse::<f64>() {
            Ok(secs) => Some(secs),
            Err(_) => http_date(v).map(|at| (at - now).max(0.0)),
        }
    });
    if let Some(secs) = asked.filter(|s| s.is_finite() && *s >= 0.0) {
        return Duration::from_secs_f64(secs.min(cap.as_secs_f64()));
    }
    let base = if base_s.is_finite() {
        base_s.max(0.0)
    } else {
        0.0
    };
    let secs = (base * 2f64.powi(attempt.saturating_sub(1).min(16) as i32)).min(60.0);
    Duration::from_secs_f64(secs)
}

/// Unix seconds of an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`, and the
/// obsolete RFC 850 and asctime forms); `None` when it is not one.
pub fn http_date(s: &str) -> Option<f64> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let (mut day, mut month, mut year, mut hms) = (None, None, None, None);
    for tok in s
        .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
        .filter(|t| !t.is_empty())
    {
        let lower = tok.to_ascii_lowercase();
        if tok.contains(':') {
            let parts: Vec<u32> = tok
                .split(':')
                .map(|p| p.parse().ok())
                .collect::<Option<_>>()?;
            if parts.len() != 3 || parts[0] > 23 || parts[1] > 59 || parts[2] > 60 {
                return None;
            }
            hms = Some(parts[0] * 3600 + parts[1] * 60 + parts[2]);
        } else if let Some(m) = MONTHS.iter().position(|m| lower.starts_with(m)) {
            // No weekday name starts like a month name.
            month = Some(m as u32 + 1);
        } else if let Ok(n) = tok.parse::<u32>() {
            match (tok.len(), day) {
                (1 | 2, None) => day = Some(n),
                (2, Some(_)) => year = Some(if n < 70 { 2000 + n } else { 1900 + n }),
                (4, _) => year = Some(n),
                _ => return None,
            }
        } else if lower != "gmt"
            && lower != "utc"
            && !lower.chars().all(|c| c.is_ascii_alphabetic())
        {
            return None;
        }
    }
    let (day, month, year, hms) = (day?, month?, year?, hms?);
    if !(1..=31).contains(&day) {
        return None;
    }
    // Days from the civil date (proleptic Gregorian), Howard Hinnant's method.
    let (y, m) = if month <= 2 {
        (year as i64 - 1, month + 9)
    } else {
        (year as i64, month - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m as i64 + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days as f64 * 86_400.0 + hms as f64)
}

/// Rewrites requests for the record: secret headers redacted, image bytes
/// replaced by frame paths, and any stray copy of the key masked.
pub struct Redactor {
    /// Base64 → label, in prompt order; identical screenshots (a step that
    /// changed nothing) are told apart by their position.
    images: Vec<(String, String)>,
    by_data: HashMap<String, String>,
    cursor: Cell<usize>,
    secrets: Vec<String>,
}

impl Redactor {
    pub fn new<'a>(images: impl Iterator<Item = &'a Image>, secrets: &[&str]) -> Redactor {
        let images: Vec<(String, String)> =
            images.map(|i| (i.base64(), i.record_label())).collect();
        let by_data = images.iter().cloned().collect();
        Redactor {
            images,
            by_data,
            cursor: Cell::new(0),
            secrets: secrets
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| s.to_string())
                .collect(),
        }
    }

    pub fn text(&self, s: &str) -> String {
        let mut out = s.to_string();
        for secret in &self.secrets {
            out = out.replace(secret.as_str(), REDACTED);
        }
        out
    }

    pub fn value(&self, v: &Value) -> Value {
        match v {
            Value::String(s) => {
                let data = s.strip_prefix("data:image/png;base64,").unwrap_or(s);
                let at = self.cursor.get();
                if let Some((b64, label)) = self.images.get(at)
                    && b64 == data
                {
                    self.cursor.set(at + 1);
                    return Value::String(label.clone());
                }
                match self.by_data.get(data) {
                    Some(label) => Value::String(label.clone()),
                    None => Value::String(self.text(s)),
                }
            }
            Value::Array(a) => Value::Array(a.iter().map(|x| self.value(x)).collect()),
            Value::Object(o) => {
                Value::Object(o.iter().map(|(k, x)| (k.clone(), self.value(x))).collect())
            }
            other => other.clone(),
        }
    }

    pub fn request(&self, req: &HttpRequest) -> Value {
        self.cursor.set(0);
        let headers: Map<String, Value> = req
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.clone(),
                    json!(if h.secret {
                        REDACTED.to_string()
                    } else {
                        self.text(&h.value)
                    }),
                )
            })
            .collect();
        json!({"url": self.text(&req.url), "headers": headers, "body": self.value(&req.body)})
    }
}

/// The largest response body a call record keeps whole (as parsed JSON);
/// a larger one is recorded as clipped text (a replay of that call then
/// reads the clipped text).
pub const MAX_RECORDED_BODY: usize = 1 << 20;

/// One `model_calls.jsonl` line.
pub fn call_record(
    redactor: &Redactor,
    provider: &str,
    model_id: &str,
    meta: CallMeta,
    episode: u32,
    req: &HttpRequest,
    result: &Result<HttpResponse, TransportFailure>,
) -> Value {
    let mut rec = json!({
        "step": meta.step,
        "episode": episode,
        "attempt": meta.attempt,
        "provider": provider,
        "model_id": model_id,
        "request": redactor.request(req),
    });
    match result {
        Ok(resp) => {
            rec["status"] = json!(resp.status);
            rec["retry_after"] = json!(resp.retry_after);
            rec["latency_ms"] = json!(resp.latency_ms);
            if let Some(location) = &resp.location {
                rec["redirect_location"] = json!(redactor.text(location));
            }
            if !resp.followed.is_empty() {
                rec["redirects_followed"] = json!(
                    resp.followed
                        .iter()
                        .map(|u| redactor.text(u))
                        .collect::<Vec<_>>()
                );
            }
            // A body larger than a stored text is kept as clipped text
            // (prefix, length, hash), parsed or not.
            let parsed = (resp.body.len() <= MAX_RECORDED_BODY)
                .then(|| serde_json::from_str::<Value>(&resp.body).ok())
                .flatten();
            match parsed {
                Some(v) => rec["response"] = redactor.value(&v),
                None => {
                    rec["response_text"] = json!(crate::wire::secrets::clip(
                        &redactor.text(&resp.body),
                        crate::wire::secrets::MAX_STORED_TEXT
                    ))
                }
            }
        }
        Err(f) => {
            rec["status"] = Value::Null;
            rec["latency_ms"] = json!(f.latency_ms);
            rec["error"] = json!(crate::wire::secrets::message(&redactor.text(&f.message)));
        }
    }
    rec
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::providers::Header;
    use std::sync::Arc;

    #[test]
    fn delays_follow_retry_after_then_backoff() {
        assert_eq!(retry_delay(1, 1.0, Some("3")), Duration::from_secs(3));
        assert_eq!(
            retry_delay(1, 1.0, Some("0.25")),
            Duration::from_millis(250)
        );
        assert_eq!(retry_delay(3, 1.0, None), Duration::from_secs(4));
        // An HTTP-date: the wait until then (none when it is past), capped.
        let at = http_date("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        assert_eq!(at, 1_445_412_480.0);
        assert_eq!(http_date("Wednesday, 21-Oct-15 07:28:00 GMT"), Some(at));
        assert_eq!(http_date("Wed Oct 21 07:28:00 2015"), Some(at));
        assert_eq!(http_date("soon"), None);
        let date = Some("Wed, 21 Oct 2015 07:28:00 GMT");
        assert_eq!(
            retry_delay_at(3, 1.0, date, at - 7.0, MAX_RETRY_AFTER),
            Duration::from_secs(7)
        );
        assert_eq!(
            retry_delay_at(3, 1.0, date, at + 100.0, MAX_RETRY_AFTER),
            Duration::ZERO
        );
        assert_eq!(
            retry_delay_at(1, 1.0, date, at - 1e9, MAX_RETRY_AFTER),
            MAX_RETRY_AFTER
        );
        assert_eq!(retry_delay(3, 1.0, Some("garbage")), Duration::from_secs(4));
        assert_eq!(retry_delay(1, 1.0, Some("1e300")), MAX_RETRY_AFTER);
        assert_eq!(retry_delay(2, f64::INFINITY, None), Duration::ZERO);
        assert_eq!(retry_delay(30, 1.0, None), Duration::from_secs(60));
        assert_eq!(retry_delay(1, 1.0, Some("100000")), MAX_RETRY_AFTER);
        assert!(
            retryable(429)
                && retryable(500)
                && retryable(529)
                && !retryable(400)
                && !retryable(401)
        );
    }

    #[test]
    fn records_hide_keys_and_image_bytes() {
        let img = Image {
            png: Arc::from(&b"\x89PNG fake"[..]),
            frame_path: Some("frames/step_000001.png".into()),
        };
        let b64 = img.base64();
        let r = Redactor::new([&img].into_iter(), &["sk-secret-123"]);
        let req = HttpRequest {
            url: "http://x/v1?k=sk-secret-123".into(),
            headers: vec![
                Header::secret("authorization", "Bearer sk-secret-123"),
                Header::plain("content-type", "application/json"),
            ],
            body: json!({"a": [{"url": format!("data:image/png;base64,{b64}")}, {"data": b64}, "echo sk-secret-123"]}),
        };
        let rec = r.request(&req);
        let s = rec.to_string();
        assert!(!s.contains("sk-secret-123"), "{s}");
        assert!(!s.contains(&b64));
        assert_eq!(
            rec["body"]["a"][0]["url"],
            json!("<image frames/step_000001.png>")
        );
        assert_eq!(
            rec["body"]["a"][1]["data"],
            json!("<image frames/step_000001.png>")
        );
        assert_eq!(rec["headers"]["authorization"], json!(REDACTED));
    }

    #[test]
    fn identical_screens_keep_their_own_frame_paths() {
        let a = Image {
            png: Arc::from(&b"same"[..]),
            frame_path: Some("frames/step_000001.png".into()),
        };
        let b = Image {
            png: Arc::from(&b"same"[..]),
            frame_path: Some("frames/step_000002.png".into()),
        };
        let r = Redactor::new([&a, &b].into_iter(), &[]);
        let req = HttpRequest {
            url: "u".into(),
            headers: vec![],
            body: json!([a.base64(), b.base64()]),
        };
        assert_eq!(
            r.request(&req)["body"],
            json!([
                "<image frames/step_000001.png>",
                "<image frames/step_000002.png>"
            ])
        );
    }
}
