//! A Streamable HTTP MCP server: every client message is a POST to the endpoint; the answer is
//! JSON or a server-sent-event stream of messages. The session id from `initialize` goes on
//! every later request.

use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::time::{Duration, Instant};

use super::protocol::{Connection, Incoming, MAX_MESSAGE_BYTES, TIMED_OUT};
use super::Redactor;

/// A Streamable HTTP connection.
pub struct HttpConnection {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    session: Option<String>,
    protocol_version: Option<String>,
    inbox: VecDeque<Incoming>,
    redactor: Redactor,
}

impl HttpConnection {
    /// A connection to `url` sending `headers` (values are secrets) on every request.
    pub fn new(
        url: &str,
        headers: Vec<(String, String)>,
        timeout: Duration,
        redactor: &Redactor,
    ) -> Result<HttpConnection, String> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!("not an http(s) URL: {url}"));
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build();
        Ok(HttpConnection {
            agent: ureq::Agent::new_with_config(config),
            url: url.to_string(),
            headers,
            session: None,
            protocol_version: None,
            inbox: VecDeque::new(),
            redactor: redactor.clone(),
        })
    }

    /// Reads the messages of an answer body: one JSON value, or an SSE stream.
    fn read_body(&mut self, content_type: &str, body: impl Read) -> Result<(), String> {
        let mut limited = body.take(MAX_MESSAGE_BYTES as u64 + 1);
        if content_type.starts_with("text/event-stream") {
            let mut data = String::new();
            for line in BufReader::new(&mut limited).lines() {
                let line = line.map_err(|e| {
                    self.redactor
                        .redact(&format!("reading the event stream: {e}"))
                })?;
                if let Some(rest) = line.strip_prefix("data:") {
                    data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
                    data.push('\n');
                } else if line.is_empty() && !data.is_empty() {
                    self.push_text(&std::mem::take(&mut data));
                }
            }
            if !data.is_empty() {
                self.push_text(&data);
            }
            if limited.limit() == 0 {
                return Err(format!(
                    "a response over {} MiB",
                    MAX_MESSAGE_BYTES / (1024 * 1024)
                ));
            }
        } else {
            let mut text = String::new();
            limited
                .read_to_string(&mut text)
                .map_err(|e| format!("reading the response: {e}"))?;
            if text.len() > MAX_MESSAGE_BYTES {
                return Err(format!(
                    "a response over {} MiB",
                    MAX_MESSAGE_BYTES / (1024 * 1024)
                ));
            }
            self.push_text(&text);
        }
        Ok(())
    }

    /// Queues a JSON message (or a batch of them), or the text as garbage.
    fn push_text(&mut self, text: &str) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return;
        }
        match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Array(batch)) => self.inbox.extend(batch.into_iter().map(Incoming::Message)),
            Ok(value) => self.inbox.push_back(Incoming::Message(value)),
            Err(_) => self.inbox.push_back(Incoming::Garbage(trimmed.to_string())),
        }
    }
}

impl Connection for HttpConnection {
    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut request = self
            .agent
            .post(&self.url)
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
        let body = serde_json::to_vec(message).map_err(|e| e.to_string())?;
        let response = request.send(&body[..]).map_err(|e| {
            let reason = match e {
                ureq::Error::Timeout(_) => TIMED_OUT.to_string(),
                other => format!("HTTP request failed: {other}"),
            };
            self.redactor.redact(&reason)
        })?;
        let status = response.status().as_u16();
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_string());
        }
        if !(200..300).contains(&status) {
            return Err(format!(
                "server answered HTTP {status} to {}",
                message
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("a response")
            ));
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
        self.read_body(&content_type, response.into_body().into_reader())?;
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

    fn receive(&mut self, _deadline: Instant) -> Result<Incoming, String> {
        // Every answer arrives with the POST that asked for it.
        self.inbox
            .pop_front()
            .ok_or_else(|| "the server sent no answer to the request".to_string())
    }
}

impl Drop for HttpConnection {
    fn drop(&mut self) {
        // End the session politely; a server that does not support it answers 405.
        if let Some(session) = &self.session {
            let mut request = self
                .agent
                .delete(&self.url)
                .header("Mcp-Session-Id", session.as_str());
            for (key, value) in &self.headers {
                request = request.header(key.as_str(), value.as_str());
            }
            let _ = request.call();
        }
    }
}
