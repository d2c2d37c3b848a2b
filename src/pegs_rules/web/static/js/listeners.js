// Listeners of one kind of message (a transport's updates, its notices), for the transports
// (local.js, remote.js) to share.

export class Listeners {
  constructor() {
    this.listeners = [];
  }

  add(listener) {
    this.listeners.push(listener);
  }

  emit(message) {
    for (const listener of this.listeners) listener(message);
  }
}
