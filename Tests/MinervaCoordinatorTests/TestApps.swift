@testable import MinervaCoordinator

extension AppDescription {
    /// One stack, the demo's screens, a guarded screen and routes: the model tests' app.
    static let basic: AppDescription = {
        let text = #"""
            {
              "name": "basic", "scheme": "basic",
              "root": {"screen": "home"},
              "screens": {
                "home": {}, "settings": {},
                "profile": {"params": ["userId"]},
                "followers": {"params": ["userId"]},
                "secret": {"requires": "signedIn", "otherwise": {"screen": "login"}},
                "login": {"presentation": "present", "style": "formSheet", "embedInNavigation": true},
                "photo": {"presentation": "present", "style": "fullScreen", "params": ["photoId"]},
                "onboarding": {"presentation": "present", "style": "formSheet", "embedInNavigation": true},
                "onboardingStep": {"params": ["step"]}
              },
              "routes": [
                {"path": "/users/:userId", "steps": [{"screen": "profile", "params": {"userId": ":userId"}}]},
                {"path": "/users/:userId/followers", "steps": [
                  {"screen": "profile", "params": {"userId": ":userId"}}, {"screen": "followers", "params": {"userId": ":userId"}}]},
                {"path": "/photos/:photoId", "steps": [{"screen": "photo", "params": {"photoId": ":photoId"}}]},
                {"path": "/secret", "steps": [{"screen": "settings"}, {"screen": "secret"}, {"screen": "settings"}]},
                {"path": "/broken", "steps": [{"screen": "photo", "params": {"photoId": "1"}}, {"screen": "settings"}]}
              ]
            }
            """#
        return try! AppDescription.parse(Array(text.utf8), source: "basic")
    }()

    /// Root flows: onboarding → sign-in → main tabs (or a split desk), with links into each.
    static let fit: AppDescription = {
        let text = #"""
            {
              "name": "fit", "scheme": "fit", "hosts": ["fit.example.com"],
              "flows": {
                "onboarding": {"root": {"screen": "welcome"}, "completes": "onboarded"},
                "auth": {"root": {"screen": "login"}, "completes": "signedIn"},
                "main": {"root": {"tabs": [{"id": "today", "screen": "dashboard"}, {"id": "me", "screen": "profile"}]}},
                "desk": {"root": {"split": {"primary": {"screen": "folders"}}}}
              },
              "launch": [{"unless": "onboarded", "flow": "onboarding"}, {"unless": "signedIn", "flow": "auth"},
                         {"if": "desk", "flow": "desk"}, {"flow": "main"}],
              "screens": {
                "welcome": {}, "tour": {"params": ["page"]}, "login": {},
                "signup": {"presentation": "present", "style": "formSheet", "embedInNavigation": true},
                "dashboard": {}, "profile": {}, "folders": {}, "folder": {"params": ["id"]},
                "workout": {"params": ["id", "mode"], "key": ["id"], "title": "Workout"},
                "player": {"presentation": "present", "style": "fullScreen", "params": ["id"]},
                "settings": {"requires": "premium", "otherwise": {"screen": "paywall"}},
                "paywall": {"presentation": "present", "style": "pageSheet", "embedInNavigation": true},
                "editor": {"presentation": "present", "style": "formSheet", "embedInNavigation": true}
              },
              "routes": [
                {"path": "/tour/:page", "flow": "onboarding", "steps": [{"screen": "tour", "params": {"page": ":page"}}]},
                {"path": "/signup", "flow": "auth", "steps": [{"screen": "signup"}]},
                {"path": "/workouts/:id", "flow": "main", "tab": "today", "steps": [{"screen": "workout", "params": {"id": ":id", "mode": "view"}}]},
                {"path": "/workouts/:id/play", "flow": "main", "tab": "today",
                 "steps": [{"screen": "workout", "params": {"id": ":id", "mode": "view"}}, {"screen": "player", "params": {"id": ":id"}}]},
                {"path": "/workouts/:id/again", "flow": "main", "tab": "today",
                 "steps": [{"screen": "workout", "params": {"id": ":id", "mode": "view"}, "fresh": true}]},
                {"path": "/me/settings", "flow": "main", "tab": "me", "steps": [{"screen": "settings"}]},
                {"path": "/edit", "flow": "main", "tab": "today", "steps": [{"screen": "editor"}]},
                {"path": "/folders/:id", "flow": "desk", "steps": [{"screen": "folder", "params": {"id": ":id"}}]}
              ]
            }
            """#
        return try! AppDescription.parse(Array(text.utf8), source: "fit")
    }()
}
