//! The MCP client side of a capture: `initialize`, `notifications/initialized`, then
//! `tools/list` following `nextCursor` to the end, over any [`Connection`].

use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};

use crate::error::{CaptureError, Garbage};
use crate::limits::{MAX_CAPTURE_BYTES, MAX_PAGES};
use crate::Redactor;

/// The protocol version offered in `initialize`.
pub const OFFERED_PROTOCOL_VERSION: &str = "2025-11-25";
/// Versions a server may answer with.
pub const KNOWN_PROTOCOL_VERSIONS: [&str; 4] =
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// What a connection hands back.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A JSON-RPC message.
    Message(Value),
    /// A line that is not JSON (a banner, a log line on stdout).
    Garbage(String),
}

/// A transport to one MCP server.
pub trait Connection {
    /// Sends one JSON-RPC message.
    fn send(&mut self, message: &Value) -> Result<(), CaptureError>;
    /// The next message, waiting until `deadline` at most ([`CaptureError::TimedOut`] then; or
    /// the server exited, a message too large).
    fn receive(&mut self, deadline: Instant) -> Result<Incoming, CaptureError>;
    /// Bytes the server has sent so far (every message, answered or not).
    fn received_bytes(&self) -> u64;
}

/// What `initialize` and `tools/list` answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// `serverInfo` from `initialize`.
    pub server_info: Value,
    /// The protocol version the server chose.
    pub protocol_version: String,
    /// `instructions` from `initialize`, when the server sent a string: several agents put
    /// them before the model every turn. Whole here: masked and cut before they are saved.
    pub instructions: Option<String>,
    /// Every tool of every page, as sent (`title` and `_meta` included).
    pub tools: Vec<Value>,
    /// Things worth telling (an unknown protocol version, skipped non-JSON lines).
    pub notes: Vec<String>,
}

/// Drives one session: request ids, answers to server requests, garbage accounting.
struct Client<'a, C: Connection> {
    connection: &'a mut C,
    /// The whole capture's timeout, and when it ends.
    timeout: Duration,
    deadline: Instant,
    redactor: &'a Redactor,
    next_id: u64,
    garbage: usize,
    last_garbage: String,
}

impl<C: Connection> Client<'_, C> {
    /// Server text for an error: redacted, one line, clipped to `max` columns.
    fn quote(&self, text: &str, max: usize) -> String {
        schematax_engine::text::clip(&self.redactor.redact(text), max)
    }

    /// What went wrong while asking for `method`, with the deadline and stdout noise named.
    fn waiting(&self, method: &str, cause: CaptureError) -> CaptureError {
        let cause = match cause {
            CaptureError::TimedOut => CaptureError::NoAnswerWithin {
                seconds: self.timeout.as_secs_f64(),
            },
            other => other,
        };
        CaptureError::Waiting {
            method: method.to_string(),
            cause: Box::new(cause),
            garbage: (self.garbage > 0).then(|| Garbage {
                lines: self.garbage,
                last: self.quote(&self.last_garbage, 60),
            }),
        }
    }

    /// Sends a request and waits for its response's `result`.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, CaptureError> {
        let id = self.next_id;
        self.next_id += 1;
        let sent = self
            .connection
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        if let Err(CaptureError::TimedOut) = sent {
            return Err(self.waiting(method, CaptureError::TimedOut));
        }
        sent?;
        loop {
            // Checked before every message, so a server that floods notifications or requests
            // cannot keep the capture going past its deadline or its size.
            let received = if Instant::now() >= self.deadline {
                Err(CaptureError::TimedOut)
            } else if self.connection.received_bytes() > MAX_CAPTURE_BYTES {
                Err(CaptureError::CaptureTooLarge)
            } else {
                self.connection.receive(self.deadline)
            };
            let incoming = received.map_err(|cause| self.waiting(method, cause))?;
            let mut message = match incoming {
                Incoming::Garbage(line) => {
                    self.garbage += 1;
                    self.last_garbage = line;
                    continue;
                }
                Incoming::Message(message) => message,
            };
            let has_method = message.get("method").is_some();
            match message.get("id") {
                // A request from the server: answer it, then keep waiting.
                Some(request_id) if has_method => {
                    let answer = answer_server_request(request_id, &message);
                    self.connection.send(&answer)?;
                }
                Some(response_id) if response_id.as_u64() == Some(id) => {
                    if let Some(error) = message.get("error") {
                        let text = error
                            .get("message")
                            .and_then(Value::as_str)
                            .unwrap_or("no message");
                        return Err(CaptureError::ErrorResponse {
                            method: method.to_string(),
                            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                            message: self.quote(text, 200),
                        });
                    }
                    // Taken, not copied: a page of tools may be large.
                    return message
                        .as_object_mut()
                        .and_then(|fields| fields.remove("result"))
                        .ok_or_else(|| CaptureError::NoResult {
                            method: method.to_string(),
                        });
                }
                // Notifications and responses to other ids are not ours to handle.
                _ => {}
            }
        }
    }
}

/// The answer to a request the server sends the client.
pub(crate) fn answer_server_request(id: &Value, request: &Value) -> Value {
    match request.get("method").and_then(Value::as_str) {
        Some("ping") => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        Some("roots/list") => json!({"jsonrpc": "2.0", "id": id, "result": {"roots": []}}),
        Some(other) => json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32601, "message": format!("Method not found: schematax only lists tools ({other})")},
        }),
        None => {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": "Invalid request"}})
        }
    }
}

/// Runs `initialize`, `notifications/initialized` and every `tools/list` page. Server text
/// quoted in an error is masked with `redactor`.
pub fn list_tools<C: Connection>(
    connection: &mut C,
    timeout: Duration,
    redactor: &Redactor,
) -> Result<Listing, CaptureError> {
    let mut client = Client {
        connection,
        timeout,
        deadline: Instant::now() + timeout,
        redactor,
        next_id: 1,
        garbage: 0,
        last_garbage: String::new(),
    };
    let init = client.request(
        "initialize",
        json!({
            "protocolVersion": OFFERED_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "schematax", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    let mut notes = Vec::new();
    let protocol_version = init
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !KNOWN_PROTOCOL_VERSIONS.contains(&protocol_version.as_str()) {
        notes.push(format!("server chose protocol version {protocol_version:?}, which schematax does not know; captured anyway"));
    }
    let server_info = init
        .get("serverInfo")
        .cloned()
        .unwrap_or(Value::Object(Map::new()));
    let instructions = match init.get("instructions") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => {
            notes.push("the server's instructions are not a string; not kept".to_string());
            None
        }
    };
    client
        .connection
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;

    let mut tools = Vec::new();
    let mut cursors: Vec<String> = Vec::new();
    let mut params = json!({});
    for page in 1.. {
        if page > MAX_PAGES {
            return Err(CaptureError::TooManyPages);
        }
        let mut result = client.request("tools/list", params)?;
        match result.get_mut("tools").map(Value::take) {
            Some(Value::Array(items)) => tools.extend(items),
            _ => return Err(CaptureError::NoToolsArray { page }),
        }
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(cursor) if !cursor.is_empty() => {
                if cursors.iter().any(|c| c == cursor) {
                    return Err(CaptureError::RepeatedCursor {
                        cursor: client.quote(cursor, 60),
                        page,
                    });
                }
                cursors.push(cursor.to_string());
                params = json!({"cursor": cursor});
            }
            _ => break,
        }
    }
    if client.garbage > 0 {
        notes.push(format!(
            "skipped {} non-JSON line(s) on stdout",
            client.garbage
        ));
    }
    Ok(Listing {
        server_info,
        protocol_version,
        instructions,
        tools,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A scripted server: answers by method.
    struct Scripted {
        sent: Vec<Value>,
        queue: VecDeque<Incoming>,
        answer: fn(&Value) -> Vec<Incoming>,
    }

    impl Connection for Scripted {
        fn send(&mut self, message: &Value) -> Result<(), CaptureError> {
            self.sent.push(message.clone());
            self.queue.extend((self.answer)(message));
            Ok(())
        }
        fn receive(&mut self, _deadline: Instant) -> Result<Incoming, CaptureError> {
            self.queue.pop_front().ok_or(CaptureError::TimedOut)
        }
        fn received_bytes(&self) -> u64 {
            0
        }
    }

    fn reply(request: &Value, result: Value) -> Incoming {
        Incoming::Message(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}))
    }

    fn scripted(answer: fn(&Value) -> Vec<Incoming>) -> Scripted {
        Scripted {
            sent: Vec::new(),
            queue: VecDeque::new(),
            answer,
        }
    }

    fn init(request: &Value) -> Vec<Incoming> {
        vec![reply(
            request,
            json!({"protocolVersion": "2025-06-18", "serverInfo": {"name": "s", "version": "1"}, "instructions": "Search first."}),
        )]
    }

    #[test]
    fn pages_requests_and_garbage() {
        let mut server = scripted(|request| match request["method"].as_str() {
            Some("initialize") => init(request),
            Some("tools/list") if request["params"].get("cursor").is_none() => vec![
                Incoming::Garbage("Server starting...".into()),
                Incoming::Message(json!({"jsonrpc": "2.0", "id": 99, "method": "roots/list"})),
                Incoming::Message(
                    json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}}),
                ),
                reply(
                    request,
                    json!({"tools": [{"name": "a"}], "nextCursor": "p2"}),
                ),
            ],
            Some("tools/list") => vec![reply(request, json!({"tools": [{"name": "b"}]}))],
            _ => vec![],
        });
        let listing =
            list_tools(&mut server, Duration::from_secs(1), &Redactor::default()).unwrap();
        assert_eq!(
            listing.tools,
            vec![json!({"name": "a"}), json!({"name": "b"})]
        );
        assert_eq!(listing.protocol_version, "2025-06-18");
        assert_eq!(listing.instructions.as_deref(), Some("Search first."));
        assert_eq!(listing.notes, ["skipped 1 non-JSON line(s) on stdout"]);
        let roots_answer = server.sent.iter().find(|m| m["id"] == 99).unwrap();
        assert_eq!(roots_answer["result"], json!({"roots": []}));
        assert!(server
            .sent
            .iter()
            .any(|m| m["method"] == "notifications/initialized"));
        assert_eq!(server.sent.last().unwrap()["params"]["cursor"], "p2");
    }

    #[test]
    fn repeated_cursor_and_error_responses() {
        let mut looping = scripted(|request| match request["method"].as_str() {
            Some("initialize") => init(request),
            Some("tools/list") => vec![reply(request, json!({"tools": [], "nextCursor": "same"}))],
            _ => vec![],
        });
        let error = list_tools(&mut looping, Duration::from_secs(1), &Redactor::default());
        assert_eq!(
            error,
            Err(CaptureError::RepeatedCursor {
                cursor: "same".into(),
                page: 2
            })
        );

        let mut failing = scripted(|request| match request["method"].as_str() {
            Some("initialize") => init(request),
            Some("tools/list") => vec![Incoming::Message(
                json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "nope: key s3cret-key\nsecond line"}}),
            )],
            _ => vec![],
        });
        let redactor = Redactor::new(["s3cret-key".to_string()]);
        let error = list_tools(&mut failing, Duration::from_secs(1), &redactor).unwrap_err();
        assert_eq!(
            error.to_string(),
            "server answered tools/list with error -32601: nope: key *** second line"
        );

        let mut silent = scripted(|_| vec![Incoming::Garbage("booting".into())]);
        let error = list_tools(&mut silent, Duration::from_secs(2), &redactor).unwrap_err();
        assert_eq!(
            error.to_string(),
            "not done within the --timeout of 2 s for the whole capture (while waiting for initialize; 1 non-JSON line on stdout, last: \"booting\")"
        );
    }

    #[test]
    fn endless_pagination_stops_at_1000_pages() {
        let mut endless = scripted(|request| match request["method"].as_str() {
            Some("initialize") => init(request),
            Some("tools/list") => {
                let n = request["id"].as_u64().unwrap();
                vec![reply(
                    request,
                    json!({"tools": [], "nextCursor": format!("c{n}")}),
                )]
            }
            _ => vec![],
        });
        let error = list_tools(&mut endless, Duration::from_secs(1), &Redactor::default());
        assert_eq!(error, Err(CaptureError::TooManyPages));
    }

    #[test]
    fn instructions_that_are_not_text_are_said_and_dropped() {
        let mut server = scripted(|request| match request["method"].as_str() {
            Some("initialize") => vec![reply(
                request,
                json!({"protocolVersion": "2025-06-18", "instructions": {"text": "x"}}),
            )],
            Some("tools/list") => vec![reply(request, json!({"tools": []}))],
            _ => vec![],
        });
        let listing =
            list_tools(&mut server, Duration::from_secs(1), &Redactor::default()).unwrap();
        assert_eq!(listing.instructions, None);
        assert_eq!(
            listing.notes,
            ["the server's instructions are not a string; not kept"]
        );
    }

    #[test]
    fn other_server_requests_get_method_not_found() {
        let answer = answer_server_request(&json!(7), &json!({"method": "sampling/createMessage"}));
        assert_eq!(answer["error"]["code"], -32601);
        assert_eq!(
            answer_server_request(&json!("x"), &json!({"method": "ping"}))["result"],
            json!({})
        );
    }
}
