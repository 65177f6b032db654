//! The baseline: a bare actix-web + actix-ws server (the same versions Stolik runs on) that
//! sends every text frame back. Driven by the same clients in the same run, it tells how much
//! of a figure is the machine, the framework and the generator, and how much is Stolik.

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use actix_ws::Message;

/// The frame the baseline's clients send: shaped like a move request.
pub fn move_frame() -> serde_json::Value {
    serde_json::json!({"type": "move", "table": "k3Jf9aQe", "move": "c3:b3,c4", "ply": 12})
}

/// Serves `/ws` on 127.0.0.1:`port` until killed.
pub fn serve(port: u16) -> std::io::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        HttpServer::new(|| App::new().route("/ws", web::get().to(echo)))
            // As Stolik does: small frames go out at once.
            .on_connect(|connection, _| {
                if let Some(tcp) = connection.downcast_ref::<actix_web::rt::net::TcpStream>() {
                    let _ = tcp.set_nodelay(true);
                }
            })
            .bind(("127.0.0.1", port))?
            .run()
            .await
    })
}

async fn echo(req: HttpRequest, body: web::Payload) -> actix_web::Result<HttpResponse> {
    let (response, mut session, mut stream) = actix_ws::handle(&req, body)?;
    actix_web::rt::spawn(async move {
        // The client waits for a hello, as it does from Stolik.
        if session.text(r#"{"type":"hello"}"#).await.is_err() {
            return;
        }
        while let Some(Ok(message)) = stream.recv().await {
            let sent = match message {
                Message::Text(text) => session.text(text).await,
                Message::Ping(bytes) => session.pong(&bytes).await,
                Message::Close(_) => break,
                _ => Ok(()),
            };
            if sent.is_err() {
                break;
            }
        }
    });
    Ok(response)
}
