// Pocket Arena's service worker: shows the notifications the server pushes (their words are
// already in the reader's language) and opens the game when one is clicked.

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data?.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "Pocket Arena", {
    body: data.body || "",
    tag: data.tag,
    icon: "/static/coin.svg",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url || "/";
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).pathname === new URL(url, self.location.origin).pathname && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
