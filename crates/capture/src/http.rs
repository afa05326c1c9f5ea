//! A Streamable HTTP MCP server: every client message is a POST to the endpoint; the answer is
//! JSON or a server-sent-event stream of messages. The session id from `initialize` goes on
//! every later request.
//!
//! The configured headers hold secrets: they go to the configured origin only. A redirect there
//! is followed by schematax itself (the POST repeated); one to another origin is an error.
//! Every request gets what is left of the capture's deadline.

use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::time::{Duration, Instant};

use crate::error::CaptureError;
use crate::limits::{ValueBudget, MAX_MESSAGE_BYTES};
use crate::protocol::{answer_server_request, Connection, Incoming};
use crate::Redactor;

/// Redirects followed for one request at most.
const MAX_REDIRECTS: usize = 5;

/// A Streamable HTTP connection.
pub struct HttpConnection {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    session: Option<String>,
    protocol_version: Option<String>,
    inbox: VecDeque<Incoming>,
    redactor: Redactor,
    /// The end of the whole capture.
    deadline: Instant,
    /// Bytes of every answer body read.
    received: u64,
    /// JSON values the server may still send.
    values: ValueBudget,
}

/// `scheme://host[:port]` of an absolute http(s) URL, lower-cased.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let host = authority.to_ascii_lowercase();
    let host = host.strip_suffix(default_port).unwrap_or(&host);
    Some(format!("{scheme}://{host}"))
}

/// Where a `Location` points, from the URL that answered with it.
fn resolve(base: &str, location: &str) -> Option<String> {
    if location.starts_with("http://") || location.starts_with("https://") {
        return Some(location.to_string());
    }
    if let Some(elsewhere) = location.strip_prefix("//") {
        // Scheme-relative: another host, maybe.
        let (scheme, _) = base.split_once("://")?;
        return Some(format!("{scheme}://{elsewhere}"));
    }
    if location.starts_with('?') {
        let path = base.split(['?', '#']).next()?;
        return Some(format!("{path}{location}"));
    }
    let base_origin = {
        let (scheme, rest) = base.split_once("://")?;
        let authority = rest.split(['/', '?', '#']).next()?;
        format!("{scheme}://{authority}")
    };
    if let Some(path) = location.strip_prefix('/') {
        return Some(format!("{base_origin}/{path}"));
    }
    // Relative to the base's folder.
    let path = base.strip_prefix(&base_origin)?;
    let folder = path.split(['?', '#']).next()?;
    let folder = &folder[..folder.rfind('/').map_or(0, |i| i + 1)];
    let folder = if folder.is_empty() { "/" } else { folder };
    Some(format!("{base_origin}{folder}{location}"))
}

impl HttpConnection {
    /// A connection to `url` sending `headers` (values are secrets) on every request.
    pub fn new(
        url: &str,
        headers: Vec<(String, String)>,
        timeout: Duration,
        redactor: &Redactor,
    ) -> Result<HttpConnection, CaptureError> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(CaptureError::NotHttp {
                url: url.to_string(),
            });
        }
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // Redirects are followed here, where the headers' origin is checked.
            .max_redirects(0)
            .build();
        Ok(HttpConnection {
            agent: ureq::Agent::new_with_config(config),
            url: url.to_string(),
            headers,
            session: None,
            protocol_version: None,
            inbox: VecDeque::new(),
            redactor: redactor.clone(),
            deadline: Instant::now() + timeout,
            received: 0,
            values: ValueBudget::default(),
        })
    }

    /// Reads the messages of an answer body: one JSON value, or an SSE stream, read until the
    /// answer to `awaited` (a request's id) has come, even when the server leaves it open.
    /// With `answering`, a request the server sends on the stream is answered as it comes
    /// (the server may wait for that answer before it sends the one awaited).
    fn read_body(
        &mut self,
        content_type: &str,
        body: impl Read,
        awaited: Option<&Value>,
        answering: bool,
    ) -> Result<(), CaptureError> {
        let mut limited = body.take(MAX_MESSAGE_BYTES as u64 + 1);
        if content_type.starts_with("text/event-stream") {
            let mut data = String::new();
            let mut reader = BufReader::new(&mut limited);
            let mut line = String::new();
            loop {
                line.clear();
                let read = reader
                    .read_line(&mut line)
                    .map_err(|e| self.read_error(&e))?;
                if read == 0 {
                    break;
                }
                self.received += read as u64;
                let line = line.trim_end_matches(['\n', '\r']);
                if let Some(rest) = line.strip_prefix("data:") {
                    data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
                    data.push('\n');
                } else if line.is_empty() && !data.is_empty() {
                    self.push_text(&std::mem::take(&mut data))?;
                    if answering {
                        self.answer_requests()?;
                    }
                    if awaited.is_some_and(|id| self.answered(id)) {
                        return Ok(());
                    }
                }
            }
            if !data.is_empty() {
                self.push_text(&data)?;
            }
            if limited.limit() == 0 {
                return Err(CaptureError::TooLarge);
            }
        } else {
            let mut text = String::new();
            limited
                .read_to_string(&mut text)
                .map_err(|e| self.read_error(&e))?;
            self.received += text.len() as u64;
            if text.len() > MAX_MESSAGE_BYTES {
                return Err(CaptureError::TooLarge);
            }
            self.push_text(&text)?;
        }
        Ok(())
    }

    /// Answers the requests the server sent (`ping`, `roots/list`, ...) now, each in a POST of
    /// its own, and takes them out of the inbox. What the answers' POSTs bring back is queued
    /// as it is, its requests answered later, by the protocol: answers never nest.
    fn answer_requests(&mut self) -> Result<(), CaptureError> {
        let (requests, others): (VecDeque<Incoming>, VecDeque<Incoming>) =
            std::mem::take(&mut self.inbox)
                .into_iter()
                .partition(|incoming| match incoming {
                    Incoming::Message(m) => m.get("method").is_some() && m.get("id").is_some(),
                    Incoming::Garbage(_) => false,
                });
        self.inbox = others;
        for request in requests {
            if let Incoming::Message(request) = request {
                let id = request.get("id").cloned().unwrap_or(Value::Null);
                self.exchange(&answer_server_request(&id, &request), false)?;
            }
        }
        Ok(())
    }

    /// Whether the inbox holds the response to request `id`.
    fn answered(&self, id: &Value) -> bool {
        self.inbox.iter().any(|incoming| match incoming {
            Incoming::Message(m) => m.get("id") == Some(id) && m.get("method").is_none(),
            Incoming::Garbage(_) => false,
        })
    }

    /// POSTs `body` to `url` with the configured headers, under what is left of the deadline.
    fn post(
        &self,
        url: &str,
        body: &[u8],
    ) -> Result<ureq::http::Response<ureq::Body>, CaptureError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(CaptureError::TimedOut);
        }
        let mut request = self
            .agent
            .post(url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        for (key, value) in &self.headers {
            request = request.header(key.as_str(), value.as_str());
        }
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session.as_str());
        }
        if let Some(version) = &self.protocol_version {
            request = request.header("MCP-Protocol-Version", version.as_str());
        }
        request
            .config()
            .timeout_global(Some(left))
            .build()
            .send(body)
            .map_err(|e| match e {
                ureq::Error::Timeout(_) => CaptureError::TimedOut,
                other => CaptureError::Request {
                    reason: schematax_engine::text::clip(
                        &self.redactor.redact(&other.to_string()),
                        200,
                    ),
                },
            })
    }

    /// POSTs `body`, following redirects within the configured origin.
    fn post_following(
        &self,
        body: &[u8],
    ) -> Result<ureq::http::Response<ureq::Body>, CaptureError> {
        let mut url = self.url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let response = self.post(&url, body)?;
            let status = response.status().as_u16();
            if !matches!(status, 301 | 302 | 303 | 307 | 308) {
                return Ok(response);
            }
            let location = response
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .ok_or(CaptureError::BadRedirect {
                    status,
                    reason: "without a Location".into(),
                })?;
            let next = resolve(&url, location).ok_or(CaptureError::BadRedirect {
                status,
                reason: "to an unusable Location".into(),
            })?;
            let from = origin(&self.url).unwrap_or_default();
            if origin(&next).as_deref() != Some(from.as_str()) {
                return Err(CaptureError::CrossOriginRedirect {
                    from,
                    to: schematax_engine::text::clip(&self.redactor.redact(&next), 80),
                });
            }
            url = next;
        }
        Err(CaptureError::BadRedirect {
            status: 0,
            reason: format!("chain longer than {MAX_REDIRECTS}"),
        })
    }

    fn read_error(&self, error: &std::io::Error) -> CaptureError {
        // The capture's deadline passing mid-body is a timeout like any other.
        let timed_out = error.kind() == std::io::ErrorKind::TimedOut
            || error
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<ureq::Error>())
                .is_some_and(|inner| matches!(inner, ureq::Error::Timeout(_)));
        if timed_out {
            return CaptureError::TimedOut;
        }
        CaptureError::Read {
            reason: schematax_engine::text::clip(&self.redactor.redact(&error.to_string()), 200),
        }
    }

    /// Queues a JSON message (or a batch of them), or the text as garbage. What looks like
    /// JSON is charged to the value budget before it is parsed.
    fn push_text(&mut self, text: &str) -> Result<(), CaptureError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
            self.inbox.push_back(Incoming::Garbage(trimmed.to_string()));
            return Ok(());
        }
        self.values.charge(trimmed.as_bytes())?;
        match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Array(batch)) => self.inbox.extend(batch.into_iter().map(Incoming::Message)),
            Ok(value) => self.inbox.push_back(Incoming::Message(value)),
            Err(_) => self.inbox.push_back(Incoming::Garbage(trimmed.to_string())),
        }
        Ok(())
    }

    /// POSTs one message and queues what the server answers; with `answering`, requests the
    /// server sends on an answer's stream are answered there (see [`HttpConnection::read_body`]).
    fn exchange(&mut self, message: &Value, answering: bool) -> Result<(), CaptureError> {
        let body = message.to_string();
        let response = self.post_following(body.as_bytes())?;
        let status = response.status().as_u16();
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_string());
        }
        if !(200..300).contains(&status) {
            return Err(CaptureError::HttpStatus {
                status,
                method: message
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("a response")
                    .to_string(),
            });
        }
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        if status == 202 || content_type.is_empty() {
            return Ok(());
        }
        // A request is answered on its own stream; a notification or a response has no answer.
        let awaited = message.get("method").and(message.get("id"));
        let reader = response.into_body().into_reader();
        self.read_body(&content_type, reader, awaited, answering)?;
        // The version the server chose goes on every later request.
        if message.get("method").and_then(Value::as_str) == Some("initialize") {
            self.protocol_version = self.inbox.iter().find_map(|m| match m {
                Incoming::Message(v) => v
                    .pointer("/result/protocolVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                Incoming::Garbage(_) => None,
            });
        }
        Ok(())
    }
}

impl Connection for HttpConnection {
    fn send(&mut self, message: &Value) -> Result<(), CaptureError> {
        self.exchange(message, true)
    }

    fn receive(&mut self, _deadline: Instant) -> Result<Incoming, CaptureError> {
        // Every answer arrives with the POST that asked for it.
        self.inbox.pop_front().ok_or(CaptureError::NoAnswer)
    }

    fn received_bytes(&self) -> u64 {
        self.received
    }
}

impl Drop for HttpConnection {
    fn drop(&mut self) {
        // End the session politely (a server that does not support it answers 405), within
        // what is left of the deadline and two seconds at most: a server that never answers
        // cannot hold the capture.
        let left = self
            .deadline
            .saturating_duration_since(Instant::now())
            .min(Duration::from_secs(2));
        if let (Some(session), false) = (&self.session, left.is_zero()) {
            let mut request = self
                .agent
                .delete(&self.url)
                .header("Mcp-Session-Id", session.as_str());
            for (key, value) in &self.headers {
                request = request.header(key.as_str(), value.as_str());
            }
            let _ = request.config().timeout_global(Some(left)).build().call();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_ignore_default_ports_case_and_paths() {
        assert_eq!(
            origin("https://Example.com:443/mcp?x=1").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(
            origin("http://127.0.0.1:8080/mcp").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_ne!(
            origin("http://127.0.0.1:8080/mcp"),
            origin("http://127.0.0.1:8081/mcp")
        );
        assert_ne!(origin("http://a.test/"), origin("https://a.test/"));
        assert_eq!(
            origin("http://user@evil.test@a.test/").as_deref(),
            Some("http://a.test")
        );
        assert_eq!(origin("ftp://a.test/"), None);
    }

    #[test]
    fn locations_resolve_against_the_url_that_answered() {
        let base = "http://127.0.0.1:9/api/mcp?x=1";
        assert_eq!(
            resolve(base, "/v2/mcp").as_deref(),
            Some("http://127.0.0.1:9/v2/mcp")
        );
        assert_eq!(
            resolve(base, "next").as_deref(),
            Some("http://127.0.0.1:9/api/next")
        );
        assert_eq!(
            resolve(base, "https://other.test/mcp").as_deref(),
            Some("https://other.test/mcp")
        );
        assert_eq!(
            resolve(base, "//other.test/mcp").as_deref(),
            Some("http://other.test/mcp")
        );
        assert_eq!(
            resolve(base, "?page=2").as_deref(),
            Some("http://127.0.0.1:9/api/mcp?page=2")
        );
    }
}
