{% load i18n %}// The chouette table's service worker (rendered by chouette.views.service_worker; registered by
// static/chouette/offline.js). What it keeps on the phone, and why no more:
// - the assets the table page needs (precached at install, then refreshed in the background when used); any
//   other request of any page passes through untouched;
// - the last copy of each table page this phone opened (network first, the copy only when the network fails),
//   so a reload without WiFi still shows the table; the queue of games itself lives in the page's storage.
// It never keeps an API answer, the polled state or any other page; and it forgets the table pages when anyone
// signs in or out on this phone (the posts to the sign-in and sign-out pages pass through it), so one account's
// page is never shown to another.
"use strict";
var VERSION = "{{ version }}";
var ASSETS = "chouette-assets-" + VERSION;
var PAGES = "chouette-pages";
var PRECACHE = {{ assets|safe }};
var SIGN_IN_OUT = {{ sign_in_out|safe }};
var TABLE_PAGE = /^\/chouette\/[^/]+\/\d+\/$/;
var OFFLINE_TEXT = "{% filter escapejs %}{% translate 'You are offline, and this table was not opened on this phone before: connect to open it.' %}{% endfilter %}";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(ASSETS).then(function (cache) { return cache.addAll(PRECACHE); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) {
      return key.indexOf("chouette-assets-") === 0 && key !== ASSETS;
    }).map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "forget-pages") event.waitUntil(caches.delete(PAGES));
});

function tablePage(request) {
  var url = new URL(request.url);
  var key = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    var keep = response.status === 200 && response.type === "basic" && !response.redirected;
    var copy = keep ? response.clone() : null;
    caches.open(PAGES).then(function (cache) { return keep ? cache.put(key, copy) : cache.delete(key); });
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(key, { ignoreVary: true }); })
      .then(function (hit) {
        return hit || new Response("<!DOCTYPE html><meta charset=utf-8><meta name=viewport content='width=device-width'><p>" +
          OFFLINE_TEXT + "</p>", { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
      });
  });
}

function asset(request) {
  return caches.open(ASSETS).then(function (cache) {
    return cache.match(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (hit) { fresh.catch(function () {}); return hit; }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && SIGN_IN_OUT.indexOf(url.pathname) >= 0) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) event.respondWith(tablePage(request));
  else if (PRECACHE.indexOf(url.pathname) >= 0) event.respondWith(asset(request));  // other pages: untouched
});
