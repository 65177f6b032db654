# The stolik binary and the web client in a small image. One node on its own by default
# (SQLite in /srv/stolik/data); docker-compose.yml runs two on PostgreSQL and Redis, set by the
# environment: DATABASE_URL, REDIS_URL, STOLIK_NODE_ID, STOLIK_BIND (README.md lists the rest).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin stolik

FROM debian:bookworm-slim
RUN useradd --system --home /srv/stolik stolik && mkdir -p /srv/stolik/data && chown stolik /srv/stolik/data
WORKDIR /srv/stolik
COPY --from=build /src/target/release/stolik /usr/local/bin/stolik
COPY web ./web
USER stolik
ENV STOLIK_BIND=0.0.0.0:8080
EXPOSE 8080
CMD ["stolik", "serve"]
