//! The bus, the limiter and the leader against a real Redis: the machine's (127.0.0.1:6379,
//! or `STOLIK_TEST_REDIS`), each test under a prefix of its own; the outage test starts and
//! stops a `redis-server` of its own on a free port.

use std::time::Duration;

use futures_util::FutureExt;

use cluster::testing::OwnRedis;
use cluster::{Bus, ClusterError, Delivery, Leader, Limiter, Quota};

fn redis_url() -> String {
    std::env::var("STOLIK_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

fn prefix() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("stolik-test:{}:{n}:", std::process::id())
}

async fn node(prefix: &str, name: &str) -> Bus {
    Bus::connect(&redis_url(), prefix, name)
        .await
        .unwrap_or_else(|e| panic!("Redis at {} is needed for this test: {e}", redis_url()))
}

async fn next(subscription: &mut cluster::Subscription) -> Delivery {
    tokio::time::timeout(Duration::from_secs(5), subscription.recv())
        .await
        .expect("a delivery within 5 s")
        .expect("the bus is open")
}

#[tokio::test]
async fn a_message_reaches_every_subscriber_on_every_node_once() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    let mut on_a = a.subscribe("table:1").await.unwrap();
    let mut on_b1 = b.subscribe("table:1").await.unwrap();
    let mut on_b2 = b.subscribe("table:1").await.unwrap();
    let mut elsewhere = b.subscribe("table:2").await.unwrap();

    // One Redis subscription per node, however many local subscribers it has.
    assert_eq!(a.publish("table:1", b"move e4").await.unwrap(), 2);
    for subscription in [&mut on_a, &mut on_b1, &mut on_b2] {
        assert_eq!(
            next(subscription).await,
            Delivery::Message("move e4".into())
        );
    }
    assert_eq!(b.publish("table:2", b"other").await.unwrap(), 1);
    assert_eq!(
        next(&mut elsewhere).await,
        Delivery::Message("other".into())
    );
    // Nothing else arrived.
    assert!(on_a.recv().now_or_never().is_none());
}

#[tokio::test]
async fn the_last_local_subscriber_leaving_ends_the_nodes_subscription() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    let first = b.subscribe("lobby").await.unwrap();
    let mut second = b.subscribe("lobby").await.unwrap();
    drop(first);
    assert_eq!(a.publish("lobby", b"1").await.unwrap(), 1);
    assert_eq!(next(&mut second).await, Delivery::Message("1".into()));
    drop(second);
    // The unsubscribe travels through the bus's task: give it a moment.
    let mut receivers = 1;
    for _ in 0..50 {
        receivers = a.publish("lobby", b"2").await.unwrap();
        if receivers == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(receivers, 0);
}

#[tokio::test]
async fn a_request_gets_its_nodes_reply() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    let mut requests = b.incoming().expect("the first call takes the stream");
    assert!(b.incoming().is_none());
    tokio::spawn(async move {
        while let Some(request) = requests.recv().await {
            let answer = format!(
                "{} from {}",
                request.payload().to_ascii_uppercase().escape_ascii(),
                request.from()
            );
            request.reply(answer.as_bytes()).await.unwrap();
        }
    });
    let replies = tokio::join!(
        a.request("b", b"sit", Duration::from_secs(5)),
        a.request("b", b"move", Duration::from_secs(5)),
    );
    assert_eq!(&replies.0.unwrap()[..], b"SIT from a");
    assert_eq!(&replies.1.unwrap()[..], b"MOVE from a");
}

#[tokio::test]
async fn a_node_that_is_not_running_or_does_not_answer_is_told_apart() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    match a.request("ghost", b"x", Duration::from_secs(5)).await {
        Err(ClusterError::NoSuchNode(node)) => assert_eq!(node, "ghost"),
        other => panic!("expected NoSuchNode, got {other:?}"),
    }
    // `b` runs but keeps its requests unanswered.
    let _requests = b.incoming().unwrap();
    match a.request("b", b"x", Duration::from_millis(200)).await {
        Err(ClusterError::Timeout(node)) => assert_eq!(node, "b"),
        other => panic!("expected Timeout, got {other:?}"),
    }
}

#[tokio::test]
async fn running_tells_which_nodes_follow_their_inbox() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    let asked = ["b".to_string(), "ghost".to_string(), "a".to_string()];
    assert_eq!(a.running(&asked).await.unwrap(), vec![true, false, true]);
    drop(b);
    // The dropped bus's subscriber task lets go of its connection soon after.
    let mut answer = Vec::new();
    for _ in 0..50 {
        answer = a.running(&asked[..1]).await.unwrap();
        if answer == [false] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answer, vec![false], "a node gone is not running");
    assert!(a.running(&[]).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_limit_counts_the_requests_of_every_node() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    let (on_a, on_b) = (Limiter::new(a), Limiter::new(b));
    let quota = Quota {
        per_second: 2.0,
        burst: 3,
    };
    assert_eq!(on_a.check("login:1.2.3.4", quota).await.unwrap(), None);
    assert_eq!(on_b.check("login:1.2.3.4", quota).await.unwrap(), None);
    assert_eq!(on_a.check("login:1.2.3.4", quota).await.unwrap(), None);
    let wait = on_b
        .check("login:1.2.3.4", quota)
        .await
        .unwrap()
        .expect("the fourth request of a burst of three is refused");
    assert!(
        wait > Duration::ZERO && wait <= Duration::from_millis(500),
        "{wait:?}"
    );
    // Another key is not affected.
    assert_eq!(on_b.check("login:5.6.7.8", quota).await.unwrap(), None);
    tokio::time::sleep(wait + Duration::from_millis(20)).await;
    assert_eq!(on_b.check("login:1.2.3.4", quota).await.unwrap(), None);
}

#[tokio::test]
async fn one_node_leads_and_another_takes_over_when_it_goes() {
    let prefix = prefix();
    let (a, b) = (node(&prefix, "a").await, node(&prefix, "b").await);
    let ttl = Duration::from_millis(600);
    let on_a = Leader::start(&a, "pairing", ttl);
    let on_b = Leader::start(&b, "pairing", ttl);
    let leaders = wait_for(|| on_a.is_leader() || on_b.is_leader()).await;
    assert!(leaders, "somebody leads");
    assert!(
        !(on_a.is_leader() && on_b.is_leader()),
        "never both at once"
    );
    let (gone, stays) = if on_a.is_leader() {
        (on_a, on_b)
    } else {
        (on_b, on_a)
    };
    drop(gone);
    assert!(
        wait_for(|| stays.is_leader()).await,
        "the other node takes over"
    );
}

/// The bus survives Redis going away: calls fail clearly meanwhile, subscribers hear of the
/// gap, and everything works again when it is back.
#[tokio::test]
async fn redis_going_away_and_coming_back() {
    let mut redis = OwnRedis::start().await;
    let url = redis.url();
    let prefix = prefix();
    let a = connect_when_up(&url, &prefix, "a").await;
    let b = connect_when_up(&url, &prefix, "b").await;
    let mut watching = b.subscribe("table:9").await.unwrap();
    assert_eq!(a.publish("table:9", b"before").await.unwrap(), 1);
    assert_eq!(
        next(&mut watching).await,
        Delivery::Message("before".into())
    );

    redis.stop();
    let failed = a.publish("table:9", b"lost").await;
    assert!(
        matches!(failed, Err(ClusterError::Unavailable(_))),
        "{failed:?}"
    );

    redis.restart().await;
    assert_eq!(next(&mut watching).await, Delivery::Gap);
    let mut delivered = 0;
    for _ in 0..100 {
        if let Ok(n) = a.publish("table:9", b"after").await {
            delivered = n;
            if n == 1 {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(delivered, 1, "b follows the channel again");
    assert_eq!(next(&mut watching).await, Delivery::Message("after".into()));
}

async fn connect_when_up(url: &str, prefix: &str, name: &str) -> Bus {
    for _ in 0..100 {
        if let Ok(bus) = Bus::connect(url, prefix, name).await {
            return bus;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("redis-server at {url} did not come up");
}

async fn wait_for(mut condition: impl FnMut() -> bool) -> bool {
    for _ in 0..100 {
        if condition() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    false
}
