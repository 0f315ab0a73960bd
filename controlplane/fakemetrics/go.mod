module kctl.local/controlplane/fakemetrics

go 1.26.0
