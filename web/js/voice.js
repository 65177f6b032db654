// Voice between the two seated players: one RTCPeerConnection, signalled through the table's
// WebSocket (`voice` messages whose signal is {kind: 'offer'|'answer'|'ice'|'bye', …}).
// It follows the "perfect negotiation" pattern: when both sides offer at once, the polite side
// (seat b) gives way. No STUN/TURN servers: the platform cannot rely on the internet, and
// players on one network (or one machine) connect through host candidates.

export class Voice {
  /**
   * @param {object} o
   * @param {(signal: object) => Promise} o.send   sends a signal to the other player
   * @param {boolean} o.polite                     true for seat b
   * @param {(state: string) => void} o.onState    'off' | 'ringing' | 'waiting' | 'connecting' | 'connected' | 'failed' | 'denied'
   */
  constructor({ send, polite, onState }) {
    this.send = send;
    this.polite = polite;
    this.onState = onState;
    this.enabled = false;
    this.pc = null;
    this.stream = null;
    this.makingOffer = false;
    this.pendingOffer = null; // an offer that arrived while voice was off
    this.pendingIce = [];
    this.audio = null;
    this.state = 'off';
    this.publish();
  }

  setState(state) {
    this.state = state;
    this.publish();
    this.onState?.(state);
  }

  /** Tests read this to see the connection come up. */
  publish() {
    window.__stolikVoice = {
      state: this.state,
      enabled: this.enabled,
      connectionState: this.pc ? this.pc.connectionState : 'none',
    };
  }

  async on() {
    if (this.enabled) return;
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
    } catch {
      this.setState('denied');
      return;
    }
    this.enabled = true;
    this.setState('waiting');
    if (this.pendingOffer) {
      // Answer the waiting offer: the remote description first, then our track joins the
      // transceiver it created, so no second negotiation is needed.
      const offer = this.pendingOffer;
      this.pendingOffer = null;
      this.createPeer(false);
      try {
        await this.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
        await this.flushIce();
        for (const track of this.stream.getTracks()) this.pc.addTrack(track, this.stream);
        await this.pc.setLocalDescription();
        await this.send({ kind: 'answer', sdp: this.pc.localDescription.sdp });
        this.setState('connecting');
      } catch (err) {
        console.warn('voice: answering failed', err);
        this.setState('failed');
      }
      return;
    }
    // Adding the track fires negotiationneeded, which sends our offer.
    this.createPeer(true);
  }

  off() {
    if (!this.enabled) return;
    this.enabled = false;
    this.send({ kind: 'bye' }).catch(() => {});
    this.teardown();
    this.setState('off');
  }

  teardown() {
    if (this.pc) {
      this.pc.onicecandidate = null;
      this.pc.ontrack = null;
      this.pc.onnegotiationneeded = null;
      this.pc.onconnectionstatechange = null;
      this.pc.close();
      this.pc = null;
    }
    if (this.stream && !this.enabled) {
      for (const track of this.stream.getTracks()) track.stop();
      this.stream = null;
    }
    if (this.audio) {
      this.audio.srcObject = null;
      this.audio.remove();
      this.audio = null;
    }
    this.publish();
  }

  destroy() {
    if (this.enabled) this.off();
    this.teardown();
  }

  createPeer(withTracks = true) {
    const pc = new RTCPeerConnection({ iceServers: [] });
    this.pc = pc;
    pc.onicecandidate = (e) => {
      if (e.candidate) this.send({ kind: 'ice', candidate: e.candidate.toJSON() }).catch(() => {});
    };
    pc.ontrack = (e) => {
      if (!this.audio) {
        this.audio = document.createElement('audio');
        this.audio.autoplay = true;
        this.audio.hidden = true;
        document.body.append(this.audio);
      }
      this.audio.srcObject = e.streams[0] || new MediaStream([e.track]);
    };
    pc.onnegotiationneeded = async () => {
      // Only offer from a stable state; an answer in progress finishes the negotiation.
      if (pc.signalingState !== 'stable') return;
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        await this.send({ kind: pc.localDescription.type, sdp: pc.localDescription.sdp });
      } catch (err) {
        console.warn('voice: offer failed', err);
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onconnectionstatechange = () => {
      const s = pc.connectionState;
      if (s === 'connected') this.setState('connected');
      else if (s === 'connecting') this.setState('connecting');
      else if (s === 'failed') this.setState('failed');
      else if (s === 'disconnected') this.setState('waiting');
      this.publish();
    };
    if (withTracks) for (const track of this.stream.getTracks()) pc.addTrack(track, this.stream);
    this.publish();
  }

  async acceptOffer(signal) {
    const pc = this.pc;
    const collision = this.makingOffer || pc.signalingState !== 'stable';
    if (collision && !this.polite) return; // the impolite side keeps its own offer
    await pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
    await this.flushIce();
    await pc.setLocalDescription();
    await this.send({ kind: 'answer', sdp: pc.localDescription.sdp });
    if (this.state !== 'connected') this.setState('connecting');
  }

  async flushIce() {
    const list = this.pendingIce;
    this.pendingIce = [];
    for (const c of list) {
      try {
        await this.pc.addIceCandidate(c);
      } catch {
        // A candidate for a discarded offer: harmless.
      }
    }
  }

  /** A signal from the other player. */
  async signal(signal) {
    if (!signal || typeof signal !== 'object') return;
    try {
      switch (signal.kind) {
        case 'offer':
          if (!this.enabled) {
            // The other player turned voice on: remember the offer and show it.
            this.pendingOffer = signal;
            this.pendingIce = [];
            this.setState('ringing');
            return;
          }
          await this.acceptOffer(signal);
          return;
        case 'answer':
          if (this.pc && this.pc.signalingState === 'have-local-offer') {
            await this.pc.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
            await this.flushIce();
          }
          return;
        case 'ice':
          if (this.pc && this.pc.remoteDescription) {
            try {
              await this.pc.addIceCandidate(signal.candidate);
            } catch {
              // Ignored offers leave their candidates unusable.
            }
          } else {
            this.pendingIce.push(signal.candidate);
          }
          return;
        case 'bye':
          this.pendingOffer = null;
          this.pendingIce = [];
          if (this.enabled) {
            // Stay ready: a fresh connection offers itself again for when they come back.
            this.teardown();
            this.setState('waiting');
            this.createPeer();
          } else {
            this.setState('off');
          }
          return;
        default:
      }
    } catch (err) {
      console.warn('voice: signal failed', err);
    }
  }
}
