{
 "format": "cgframework-proof-ledger-signature",
 "version": 1,
 "key": "ed25519:8735151a56e7518957998286f8a75209",
 "sha256": "7de21cfd2ecd5e5d6153b49c685fe5255e4f26d975be075557e1b953b234eddd",
 "size": 57336,
 "signature": "OKzljmJt9wOAAtd+gLIcxYg3+8WvxLhgz92GfCRKjgN0Ki1MCCC1VJk0m4oTxtUbQrL8dicxJGaIHsArl0apDw=="
}
