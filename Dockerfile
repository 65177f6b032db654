# The stolik binary, with the web client built into it, in a small image. One node on its own by default
# (SQLite in /srv/stolik/data); docker-compose.yml runs two on PostgreSQL and Redis, set by the
# environment: DATABASE_URL, REDIS_URL, STOLIK_NODE_ID, STOLIK_BIND (README.md lists the rest).
FROM rust:1-bookworm AS build
# The server's build bundles the web client with esbuild (crates/server/build.rs).
RUN apt-get update && apt-get install -y --no-install-recommends nodejs npm && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin stolik

FROM debian:bookworm-slim
# OpenSSL and the CA certificates: Web Push messages go to the browsers' push services over TLS.
RUN apt-get update && apt-get install -y --no-install-recommends libssl3 ca-certificates && rm -rf /var/lib/apt/lists/*
RUN useradd --system --home /srv/stolik stolik && mkdir -p /srv/stolik/data/white-rabbit && chown -R stolik /srv/stolik/data
WORKDIR /srv/stolik
COPY --from=build /src/target/release/stolik /usr/local/bin/stolik
USER stolik
ENV STOLIK_BIND=0.0.0.0:8080
EXPOSE 8080
CMD ["stolik", "serve"]
